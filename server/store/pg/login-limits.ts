// Failed panel logins in PostgreSQL: the same rows and rules as SQLite's (../login-limits.ts), shared by every panel.
import { countedSince, pairOf, retryAfterOf, type LoginGate, type LoginLimits } from '../../domain/login-limits.ts';
import { inTransaction, type Pool } from './connect.ts';

const RECENT = 'SELECT at FROM login_failures WHERE scope = $1 AND subject = $2 AND at > $3 ORDER BY at';

export async function beginLoginPg(
  pool: Pool,
  account: string,
  address: string,
  limits: LoginLimits,
  now: Date,
): Promise<LoginGate> {
  return inTransaction(pool, async (c) => {
    // One check-and-count at a time across every panel, as SQLite's write lock does: tries at once cannot all pass.
    await c.query('LOCK TABLE login_failures IN SHARE ROW EXCLUSIVE MODE');
    const since = countedSince(limits, now).toISOString();
    await c.query('DELETE FROM login_failures WHERE at <= $1', [since]);
    const recent = async (scope: string, subject: string) =>
      (await c.query<{ at: string }>(RECENT, [scope, subject, since])).rows.map((r) => r.at);
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
    const { rows } = await c.query<{ id: string; scope: string }>(
      `INSERT INTO login_failures (scope, subject, at) VALUES ('account', $1, $3), ('pair', $4, $3), ('address', $2, $3)
      RETURNING id, scope`,
      [account, address, now.toISOString(), pair],
    );
    return { attempt: Number(rows.find((r) => r.scope === 'address')!.id) };
  });
}

export async function loginSucceededPg(pool: Pool, account: string, address: string, attempt: number): Promise<void> {
  await pool.query(
    `DELETE FROM login_failures
    WHERE (scope = 'account' AND subject = $1) OR (scope = 'pair' AND subject = $3) OR id = $2`,
    [account, attempt, pairOf(account, address)],
  );
}
