// Failed panel logins in SQLite, per account, per account and address, and per address: every panel on the file, and a
// restarted one, counts them.
import { countedSince, pairOf, retryAfterOf, type LoginGate, type LoginLimits } from '../domain/login-limits.ts';
import type { Db } from './db.ts';
import { statementsFor } from './statements.ts';

const stmts = statementsFor((db) => ({
  forget: db.prepare<[string]>('DELETE FROM login_failures WHERE at <= ?'),
  recent: db
    .prepare<[string, string, string], string>(
      'SELECT at FROM login_failures WHERE scope = ? AND subject = ? AND at > ? ORDER BY at',
    )
    .pluck(),
  insert: db.prepare<[string, string, string]>('INSERT INTO login_failures (scope, subject, at) VALUES (?, ?, ?)'),
  clearAccount: db.prepare<[string, string]>(
    "DELETE FROM login_failures WHERE (scope = 'account' AND subject = ?) OR (scope = 'pair' AND subject = ?)",
  ),
  clearAttempt: db.prepare<[number]>('DELETE FROM login_failures WHERE id = ?'),
}));

/** Checks the limits and counts this try as a failure in one write transaction, so tries made at once cannot all pass. */
export function beginLogin(db: Db, account: string, address: string, limits: LoginLimits, now: Date): LoginGate {
  const s = stmts(db);
  return db
    .transaction((): LoginGate => {
      const since = countedSince(limits, now).toISOString();
      s.forget.run(since);
      const pair = pairOf(account, address);
      const recent = {
        account: s.recent.all('account', account, since),
        pair: s.recent.all('pair', pair, since),
        address: s.recent.all('address', address, since),
      };
      const retryAfter = retryAfterOf(recent, limits, now);
      if (retryAfter > 0) return { retryAfter };
      s.insert.run('account', account, now.toISOString());
      s.insert.run('pair', pair, now.toISOString());
      return { attempt: Number(s.insert.run('address', address, now.toISOString()).lastInsertRowid) };
    })
    .immediate();
}

/**
 * The password was right: the account's failures go (from anywhere, and from this address), and this try's count on its
 * address (earlier ones stay).
 */
export function loginSucceeded(db: Db, account: string, address: string, attempt: number): void {
  const s = stmts(db);
  db.transaction(() => {
    s.clearAccount.run(account, pairOf(account, address));
    s.clearAttempt.run(attempt);
  })();
}
