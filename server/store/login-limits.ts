// Failed panel logins in SQLite, per account, per account and address, per address, and per device cookie: every panel
// on the file, and a restarted one, counts them.
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

type Statements = ReturnType<typeof stmts>;

/** What the counts say of a try: counted on its device cookie, or the seconds it must wait (0: it may go on). */
function limitsSay(s: Statements, login: LoginTry, limits: LoginLimits, now: Date): LimitsSay {
  const { account, address, device } = login;
  const since = countedSince(limits, now).toISOString();
  if (device !== undefined && deviceExempts(s.recent.all('device', device, since), limits)) return { byDevice: true };
  const pair = pairOf(account, address);
  const recent = {
    account: s.recent.all('account', account, since),
    pair: s.recent.all('pair', pair, since),
    address: s.recent.all('address', address, since),
  };
  return { retryAfter: retryAfterOf(recent, limits, now) };
}

/**
 * Checks the limits and counts this try as a failure in one write transaction, so tries made at once cannot all pass:
 * on its device cookie while that has failures to spare, else on the account, the pair and the address. A try that
 * `admit` has no room for is answered from a read alone (refusedUnread).
 */
export function beginLogin(db: Db, login: LoginTry, limits: LoginLimits, now: Date, admit: LoginAdmit): LoginGate {
  const s = stmts(db);
  if (!admit.free()) {
    const refused = refusedUnread(db.transaction(() => limitsSay(s, login, limits, now)).deferred());
    if (refused) return refused;
  }
  return db
    .transaction((): LoginGate => {
      const at = now.toISOString();
      s.forget.run(countedSince(limits, now).toISOString());
      const said = limitsSay(s, login, limits, now);
      if ('byDevice' in said) {
        if (!admit.take(true)) return { busy: true };
        return { attempt: Number(s.insert.run('device', login.device!, at).lastInsertRowid), byDevice: true };
      }
      if (said.retryAfter > 0) return said;
      if (!admit.take(false)) return { busy: true };
      s.insert.run('account', login.account, at);
      s.insert.run('pair', pairOf(login.account, login.address), at);
      return { attempt: Number(s.insert.run('address', login.address, at).lastInsertRowid), byDevice: false };
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
