// Failed panel logins in PostgreSQL: the same rows and rules as SQLite's (../login-limits.ts), shared by every panel.
import {
  countedSince,
  deviceExempts,
  pairOf,
  retryAfterOf,
  type LoginAdmit,
  type LoginGate,
  type LoginLimits,
  type LoginTry,
} from '../../domain/login-limits.ts';
import { inTransaction, type Pool } from './connect.ts';

const RECENT = 'SELECT at FROM login_failures WHERE scope = $1 AND subject = $2 AND at > $3 ORDER BY at';

export async function beginLoginPg(
  pool: Pool,
  login: LoginTry,
  limits: LoginLimits,
  now: Date,
  admit: LoginAdmit,
): Promise<LoginGate> {
  const { account, address, device } = login;
  return inTransaction(pool, async (c) => {
    // One check-and-count at a time across every panel, as SQLite's write lock does: tries at once cannot all pass.
    await c.query('LOCK TABLE login_failures IN SHARE ROW EXCLUSIVE MODE');
    const since = countedSince(limits, now).toISOString();
    const at = now.toISOString();
    await c.query('DELETE FROM login_failures WHERE at <= $1', [since]);
    const recent = async (scope: string, subject: string) =>
      (await c.query<{ at: string }>(RECENT, [scope, subject, since])).rows.map((r) => r.at);
    if (device !== undefined && deviceExempts(await recent('device', device), limits)) {
      if (!admit(true)) return { busy: true };
      const { rows } = await c.query<{ id: string }>(
        `INSERT INTO login_failures (scope, subject, at) VALUES ('device', $1, $2) RETURNING id`,
        [device, at],
      );
      return { attempt: Number(rows[0]!.id), byDevice: true };
    }
    const pair = pairOf(account, address);
    const retryAfter = retryAfterOf(
      {
        account: await recent('account', account),
        pair: await recent('pair', pair),
        address: await recent('address', address),
      },
      limits,
      now,
    );
    if (retryAfter > 0) return { retryAfter };
    if (!admit(false)) return { busy: true };
    const { rows } = await c.query<{ id: string; scope: string }>(
      `INSERT INTO login_failures (scope, subject, at) VALUES ('account', $1, $3), ('pair', $4, $3), ('address', $2, $3)
      RETURNING id, scope`,
      [account, address, at, pair],
    );
    return { attempt: Number(rows.find((r) => r.scope === 'address')!.id), byDevice: false };
  });
}

export async function loginSucceededPg(pool: Pool, login: LoginTry, attempt: number, byDevice: boolean): Promise<void> {
  const pair = pairOf(login.account, login.address);
  await pool.query(
    byDevice
      ? 'DELETE FROM login_failures WHERE id = $1'
      : `DELETE FROM login_failures
        WHERE (scope = 'account' AND subject = $2) OR (scope = 'pair' AND subject = $3) OR id = $1`,
    byDevice ? [attempt] : [attempt, login.account, pair],
  );
}
