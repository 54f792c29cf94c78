// Two-factor login in SQLite: an operator's TOTP secret, the last time step used, recovery-code digests, and logins
// whose password was right and that wait for their code.
import { accountAudit, appendAudit } from './audit.ts';
import type { Db } from './db.ts';
import {
  endSessionsOf,
  existingOperator,
  infoOfOperator,
  keepOnlyEnrollingSession,
  operatorById,
  type OperatorInfo,
} from './operators.ts';
import { statementsFor } from './statements.ts';

/** A login between its password and its code: only the token's digest is stored, as for a session. */
export interface PendingLogin {
  digest: string;
  operator_id: string;
  /** The password try's count on the limits, cleared with the code's once the code is right. */
  attempt: number;
  /** The operator asked to end its other sessions once logged in. */
  end_others: boolean;
  created_at: string;
}

/** An enrolment's first right code: whose, from which session, the time step it used and the recovery codes' digests. */
export interface Enrolment {
  operatorId: string;
  /** The digest of the session that enrolled. */
  enrolling: string;
  step: number;
  digests: readonly string[];
  actor: string;
}

/** What is left of a recovery code's use: the digests still unused, or undefined when the code was not one. */
export function withoutDigest(stored: string, digest: string): string[] | undefined {
  const digests = JSON.parse(stored) as string[];
  const at = digests.indexOf(digest);
  return at < 0 ? undefined : digests.filter((_, i) => i !== at);
}

const stmts = statementsFor((db) => ({
  start: db.prepare('UPDATE operators SET totp_secret = ? WHERE id = ? AND totp_enabled_at IS NULL'),
  enable: db.prepare(`UPDATE operators SET totp_enabled_at = ?, totp_last_step = ?, recovery_codes = ?
    WHERE id = ? AND totp_enabled_at IS NULL AND totp_secret IS NOT NULL`),
  // Accepted only if no code of this step or a later one was: one write decides, so a replay sent at once loses too.
  step: db.prepare(
    'UPDATE operators SET totp_last_step = ? WHERE id = ? AND (totp_last_step IS NULL OR totp_last_step < ?)',
  ),
  codes: db.prepare('UPDATE operators SET recovery_codes = ? WHERE id = ?'),
  reset: db.prepare(`UPDATE operators SET totp_secret = NULL, totp_enabled_at = NULL, totp_last_step = NULL,
    recovery_codes = '[]' WHERE id = ?`),
  insertPending: db.prepare(`INSERT INTO login_pending (digest, operator_id, attempt, end_others, created_at)
    VALUES (@digest, @operator_id, @attempt, @end_others, @created_at)`),
  pending: db.prepare<[string], Omit<PendingLogin, 'end_others'> & { end_others: number }>(
    'SELECT * FROM login_pending WHERE digest = ?',
  ),
  endPending: db.prepare('DELETE FROM login_pending WHERE digest = ?'),
  endStale: db.prepare('DELETE FROM login_pending WHERE created_at < ?'),
}));

/** The secret an enrolment shows; replaced by the next start until a first code confirms it. */
export const startEnrolment = (db: Db, operatorId: string, secret: string) =>
  void stmts(db).start.run(secret, operatorId);

/**
 * The first code was right: two-factor is on from now, with `step` used and these recovery-code digests; the session
 * `enrolling` goes on as a login made with a code, the account's others end.
 */
export function enableTwoFactor(db: Db, enrolment: Enrolment) {
  const { operatorId, enrolling, step, digests, actor } = enrolment;
  return db
    .transaction((): boolean => {
      const done = stmts(db).enable.run(new Date().toISOString(), step, JSON.stringify(digests), operatorId).changes;
      const row = operatorById(db, operatorId);
      if (done !== 1 || !row) return false;
      appendAudit(db, accountAudit('2fa.enrol', actor, row.email));
      keepOnlyEnrollingSession(db, operatorId, enrolling, row.email);
      return true;
    })
    .immediate();
}

export const useTimeStep = (db: Db, operatorId: string, step: number): boolean =>
  stmts(db).step.run(step, operatorId, step).changes === 1;

/** Uses the recovery code of this digest: true once, false ever after. */
export function useRecoveryCode(db: Db, operatorId: string, digest: string): boolean {
  return db
    .transaction(() => {
      const row = operatorById(db, operatorId);
      const left = row && withoutDigest(row.recovery_codes, digest);
      if (!row || !left) return false;
      stmts(db).codes.run(JSON.stringify(left), operatorId);
      appendAudit(db, accountAudit('2fa.recovery_used', row.email, row.email, { left: left.length }));
      return true;
    })
    .immediate();
}

/** Two-factor off, its secret and codes gone, the account's sessions ended: the operator enrols again. */
export function resetTwoFactor(db: Db, email: string, actor: string): OperatorInfo {
  return db
    .transaction(() => {
      const row = existingOperator(db, email);
      stmts(db).reset.run(row.id);
      endSessionsOf(db, row.id);
      appendAudit(db, accountAudit('2fa.reset', actor, row.email));
      return infoOfOperator(operatorById(db, row.id)!);
    })
    .immediate();
}

export function createPending(db: Db, row: PendingLogin): void {
  stmts(db).insertPending.run({ ...row, end_others: row.end_others ? 1 : 0 });
}

export function pendingLogin(db: Db, digest: string): PendingLogin | undefined {
  const row = stmts(db).pending.get(digest);
  return row && { ...row, attempt: Number(row.attempt), end_others: row.end_others === 1 };
}

export const endPending = (db: Db, digest: string) => void stmts(db).endPending.run(digest);
export const endStalePending = (db: Db, before: Date) => void stmts(db).endStale.run(before.toISOString());
