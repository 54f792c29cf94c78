// Failed panel logins in PostgreSQL: the same rows and rules as SQLite's (../login-limits.ts), shared by every panel.
import {
  countedSince,
  deviceExempts,
  pairOf,
  refusedUnread,
  retryAfterOf,
  type LimitsSay,
  type LoginAdmit,
  type LoginGate,
  type LoginLimits,
  type LoginTry,
} from '../../domain/login-limits.ts';
import { inTransaction, type Pool, type PoolClient } from './connect.ts';

const RECENT = 'SELECT at FROM login_failures WHERE scope = $1 AND subject = $2 AND at > $3 ORDER BY at';

/** As SQLite's limitsSay: counted on the device cookie, or the seconds the try must wait (0: it may go on). */
async function limitsSayPg(q: Pool | PoolClient, login: LoginTry, limits: LoginLimits, now: Date): Promise<LimitsSay> {
  const { account, address, device } = login;
  const since = countedSince(limits, now).toISOString();
  const recent = async (scope: string, subject: string) =>
    (await q.query<{ at: string }>(RECENT, [scope, subject, since])).rows.map((r) => r.at);
  if (device !== undefined && deviceExempts(await recent('device', device), limits)) return { byDevice: true };
  const pair = pairOf(account, address);
  const failures = {
    account: await recent('account', account),
    pair: await recent('pair', pair),
    address: await recent('address', address),
  };
  return { retryAfter: retryAfterOf(failures, limits, now) };
}

export async function beginLoginPg(
  pool: Pool,
  login: LoginTry,
  limits: LoginLimits,
  now: Date,
  admit: LoginAdmit,
): Promise<LoginGate> {
  // No room for the try: answered from a read alone, without the lock below (refusedUnread).
  if (!admit.free()) {
    const refused = refusedUnread(await inTransaction(pool, (c) => limitsSayPg(c, login, limits, now)));
    if (refused) return refused;
  }
  const { account, address, device } = login;
  return inTransaction(pool, async (c) => {
    // One check-and-count at a time across every panel, as SQLite's write lock does: tries at once cannot all pass.
    await c.query('LOCK TABLE login_failures IN SHARE ROW EXCLUSIVE MODE');
    const at = now.toISOString();
    await c.query('DELETE FROM login_failures WHERE at <= $1', [countedSince(limits, now).toISOString()]);
    const said = await limitsSayPg(c, login, limits, now);
    if ('byDevice' in said) {
      if (!admit.take(true)) return { busy: true };
      const { rows } = await c.query<{ id: string }>(
        `INSERT INTO login_failures (scope, subject, at) VALUES ('device', $1, $2) RETURNING id`,
        [device, at],
      );
      return { attempt: Number(rows[0]!.id), byDevice: true };
    }
    if (said.retryAfter > 0) return said;
    if (!admit.take(false)) return { busy: true };
    const { rows } = await c.query<{ id: string; scope: string }>(
      `INSERT INTO login_failures (scope, subject, at) VALUES ('account', $1, $3), ('pair', $4, $3), ('address', $2, $3)
      RETURNING id, scope`,
      [account, address, at, pairOf(account, address)],
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
