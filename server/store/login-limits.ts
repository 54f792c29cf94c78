// Failed panel logins in SQLite, per account, per account and address, per address, and per device cookie: every panel
// on the file, and a restarted one, counts them.
import {
  countedSince,
  deviceExempts,
  pairOf,
  retryAfterOf,
  type LoginAdmit,
  type LoginGate,
  type LoginLimits,
  type LoginTry,
} from '../domain/login-limits.ts';
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

/**
 * Checks the limits and counts this try as a failure in one write transaction, so tries made at once cannot all pass:
 * on its device cookie while that has failures to spare, else on the account, the pair and the address.
 */
export function beginLogin(db: Db, login: LoginTry, limits: LoginLimits, now: Date, admit: LoginAdmit): LoginGate {
  const s = stmts(db);
  const { account, address, device } = login;
  return db
    .transaction((): LoginGate => {
      const since = countedSince(limits, now).toISOString();
      const at = now.toISOString();
      s.forget.run(since);
      if (device !== undefined && deviceExempts(s.recent.all('device', device, since), limits)) {
        if (!admit(true)) return { busy: true };
        return { attempt: Number(s.insert.run('device', device, at).lastInsertRowid), byDevice: true };
      }
      const pair = pairOf(account, address);
      const recent = {
        account: s.recent.all('account', account, since),
        pair: s.recent.all('pair', pair, since),
        address: s.recent.all('address', address, since),
      };
      const retryAfter = retryAfterOf(recent, limits, now);
      if (retryAfter > 0) return { retryAfter };
      if (!admit(false)) return { busy: true };
      s.insert.run('account', account, at);
      s.insert.run('pair', pair, at);
      return { attempt: Number(s.insert.run('address', address, at).lastInsertRowid), byDevice: false };
    })
    .immediate();
}

/**
 * The password was right: this try's count goes, and, unless it was counted on a device cookie, the account's failures
 * (from anywhere, and from this address); never its address's earlier failures, nor a device cookie's.
 */
export function loginSucceeded(db: Db, login: LoginTry, attempt: number, byDevice: boolean): void {
  const s = stmts(db);
  db.transaction(() => {
    if (!byDevice) s.clearAccount.run(login.account, pairOf(login.account, login.address));
    s.clearAttempt.run(attempt);
  })();
}
