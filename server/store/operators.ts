// Panel operators and their sessions in SQLite: password hashes and session-token digests, never the secrets.
import { ListingsError } from '../errors.ts';
import { emailForms, emailKey, normalEmail } from '../domain/emails.ts';
import { randomAlphanumeric } from '../domain/keys.ts';
import type { Role } from '../domain/roles.ts';
import type { SessionRow } from '../domain/sessions.ts';
import { accountAudit, appendAudit } from './audit.ts';
import type { Db } from './db.ts';
import { statementsFor } from './statements.ts';

export interface OperatorRow {
  id: string;
  email: string;
  password_hash: string;
  created_at: string;
  password_changed_at: string;
  role: Role;
  /** The TOTP secret (base32): set at enrolment's start, in use once `totp_enabled_at` is. Never shown again. */
  totp_secret: string | null;
  totp_enabled_at: string | null;
  /** The last TOTP time step accepted: a code of that step or an earlier one is refused. */
  totp_last_step: number | null;
  /** SHA-256 digests of the recovery codes not used yet, as a JSON array. */
  recovery_codes: string;
}

/** What `operators list` shows: never the hash or the secret. */
export interface OperatorInfo {
  id: string;
  email: string;
  role: Role;
  created_at: string;
  password_changed_at: string;
  two_factor_since: string | null;
}

export function infoOfOperator(row: OperatorRow): OperatorInfo {
  const { id, email, role, created_at, password_changed_at, totp_enabled_at } = row;
  return { id, email, role, created_at, password_changed_at, two_factor_since: totp_enabled_at };
}

export function newOperatorRow(email: string, passwordHash: string, role: Role, now = new Date()): OperatorRow {
  const at = now.toISOString();
  return {
    id: `op_${randomAlphanumeric(16)}`,
    email: normalEmail(email),
    password_hash: passwordHash,
    created_at: at,
    password_changed_at: at,
    role,
    totp_secret: null,
    totp_enabled_at: null,
    totp_last_step: null,
    recovery_codes: '[]',
  };
}

/**
 * The role a new account gets: the first is an owner (someone must be able to manage the others), later ones what was
 * asked, a viewer when nothing was.
 */
export function roleOfNew(asked: Role | undefined, operatorsSoFar: number): Role {
  if (operatorsSoFar > 0) return asked ?? 'viewer';
  if (asked !== undefined && asked !== 'owner')
    throw new ListingsError('first_operator_owner', 'the first operator is an owner: add it with --role owner');
  return 'owner';
}

/** Refuses a role change that would leave the panel without an owner (the CLI alone could then manage accounts). */
export function checkOwnersLeft(owners: number, row: OperatorRow, newRole: Role): void {
  if (row.role === 'owner' && newRole !== 'owner' && owners <= 1)
    throw new ListingsError('last_owner', `${row.email} is the last owner: make another operator an owner first`);
}

/** Refuses removing the last owner while other accounts remain: none of them could manage accounts in the panel. */
export function checkOwnerRemovable(owners: number, operators: number, row: OperatorRow): void {
  if (operators > 1) checkOwnersLeft(owners, row, 'viewer');
}

export const operatorExists = (email: string) =>
  new ListingsError('operator_exists', `an operator with email ${email} already exists`);
export const unknownOperator = (email: string) =>
  new ListingsError('unknown_operator', `no operator with email ${email}`);

const stmts = statementsFor((db) => ({
  insert: db.prepare(`INSERT INTO operators (id, email, password_hash, created_at, password_changed_at, role)
    VALUES (@id, @email, @password_hash, @created_at, @password_changed_at, @role)`),
  count: db.prepare<[], number>('SELECT count(*) FROM operators').pluck(),
  owners: db.prepare<[], number>("SELECT count(*) FROM operators WHERE role = 'owner'").pluck(),
  // The account stored as typed first (one left as it was because another shares its normal form), then the normal form.
  byEmail: db.prepare<[{ asTyped: string; normal: string }], OperatorRow>(
    'SELECT * FROM operators WHERE email IN (@asTyped, @normal) ORDER BY email = @asTyped DESC LIMIT 1',
  ),
  byId: db.prepare<[string], OperatorRow>('SELECT * FROM operators WHERE id = ?'),
  all: db.prepare<[], OperatorRow>('SELECT * FROM operators ORDER BY email'),
  remove: db.prepare('DELETE FROM operators WHERE id = ?'),
  passwd: db.prepare('UPDATE operators SET password_hash = ?, password_changed_at = ? WHERE id = ?'),
  role: db.prepare('UPDATE operators SET role = ? WHERE id = ?'),
  endSessionsOf: db.prepare('DELETE FROM operator_sessions WHERE operator_id = ? AND digest IS NOT ?'),
  endPendingOf: db.prepare('DELETE FROM login_pending WHERE operator_id = ?'),
  insertSession: db.prepare(`INSERT INTO operator_sessions (digest, operator_id, csrf, created_at, seen_at, two_factor)
    VALUES (@digest, @operator_id, @csrf, @created_at, @seen_at, @two_factor)`),
  session: db.prepare<[string], StoredSession>('SELECT * FROM operator_sessions WHERE digest = ?'),
  completeSession: db.prepare('UPDATE operator_sessions SET two_factor = 1 WHERE digest = ?'),
  touch: db.prepare('UPDATE operator_sessions SET seen_at = ? WHERE digest = ?'),
  endSession: db.prepare('DELETE FROM operator_sessions WHERE digest = ?'),
  endExpired: db.prepare('DELETE FROM operator_sessions WHERE seen_at < ? OR created_at < ?'),
}));

export function addOperator(db: Db, email: string, passwordHash: string, role: Role | undefined, actor: string) {
  return db
    .transaction((): OperatorInfo => {
      const row = newOperatorRow(email, passwordHash, roleOfNew(role, stmts(db).count.get()!));
      if (operatorByEmail(db, row.email)) throw operatorExists(row.email);
      stmts(db).insert.run(row);
      appendAudit(db, accountAudit('operator.add', actor, row.email, { role: row.role }));
      return infoOfOperator(row);
    })
    .immediate();
}

export const listOperators = (db: Db): OperatorInfo[] => stmts(db).all.all().map(infoOfOperator);
/** The account of an email however it is typed (emailForms): any address, valid or not, is only looked up. */
export const operatorByEmail = (db: Db, email: string) => stmts(db).byEmail.get(emailForms(email));
export const operatorById = (db: Db, id: string) => stmts(db).byId.get(id);

export function existingOperator(db: Db, email: string): OperatorRow {
  const row = operatorByEmail(db, email);
  if (!row) throw unknownOperator(emailKey(email));
  return row;
}

/** Removing an account ends its sessions (they cascade); the last owner stays while other accounts remain. */
export function removeOperator(db: Db, email: string, actor: string): OperatorInfo {
  return db
    .transaction(() => {
      const row = existingOperator(db, email);
      checkOwnerRemovable(stmts(db).owners.get()!, stmts(db).count.get()!, row);
      stmts(db).remove.run(row.id);
      appendAudit(db, accountAudit('operator.remove', actor, row.email));
      return infoOfOperator(row);
    })
    .immediate();
}

/** A new password ends every session of the account: whoever knew the old one is logged out. */
export function setOperatorPassword(db: Db, email: string, passwordHash: string, actor: string): OperatorInfo {
  return db
    .transaction(() => {
      const row = existingOperator(db, email);
      stmts(db).passwd.run(passwordHash, new Date().toISOString(), row.id);
      endSessionsOf(db, row.id);
      appendAudit(db, accountAudit('operator.password', actor, row.email));
      return infoOfOperator(operatorById(db, row.id)!);
    })
    .immediate();
}

/** A new role ends the account's sessions, so that none goes on with the rights it had; the same role changes nothing. */
export function setOperatorRole(db: Db, email: string, role: Role, actor: string): OperatorInfo {
  return db
    .transaction(() => {
      const row = existingOperator(db, email);
      if (row.role === role) return infoOfOperator(row);
      checkOwnersLeft(stmts(db).owners.get()!, row, role);
      stmts(db).role.run(role, row.id);
      endSessionsOf(db, row.id);
      appendAudit(db, accountAudit('operator.role', actor, row.email, { from: row.role, to: role }));
      return infoOfOperator(operatorById(db, row.id)!);
    })
    .immediate();
}

/**
 * Ends the account's sessions but `except` (the one asking, when it stays logged in), and its logins waiting for their
 * second step: one begun with the old password must not finish after a password change.
 */
export function endSessionsOf(db: Db, operatorId: string, except: string | null = null): void {
  stmts(db).endSessionsOf.run(operatorId, except);
  stmts(db).endPendingOf.run(operatorId);
}

/** A session as both stores keep it: its two-factor flag a 0 or a 1. */
export type StoredSession = Omit<SessionRow, 'two_factor'> & { two_factor: number };

export const storedSession = (row: SessionRow): StoredSession => ({ ...row, two_factor: row.two_factor ? 1 : 0 });
export const sessionOfStored = (row: StoredSession): SessionRow => ({ ...row, two_factor: row.two_factor === 1 });

export const createSession = (db: Db, row: SessionRow) => void stmts(db).insertSession.run(storedSession(row));
export function sessionByDigest(db: Db, digest: string): SessionRow | undefined {
  const row = stmts(db).session.get(digest);
  return row && sessionOfStored(row);
}

/**
 * Two-factor was turned on from this session: it goes on as a login made with a code, and every other session of the
 * account ends (one made with the password alone must not go on), audited as the account page's button is.
 */
export function keepOnlyEnrollingSession(db: Db, operatorId: string, digest: string, email: string): void {
  stmts(db).completeSession.run(digest);
  endSessionsOf(db, operatorId, digest);
  appendAudit(db, accountAudit('logout.everywhere', email, email));
}
export const touchSession = (db: Db, digest: string, at: Date) => void stmts(db).touch.run(at.toISOString(), digest);
export const endSession = (db: Db, digest: string) => void stmts(db).endSession.run(digest);

/** Sessions last seen before `idleBefore` or made before `createdBefore`: ended sessions nobody came back to. */
export const endExpiredSessions = (db: Db, idleBefore: Date, createdBefore: Date) =>
  void stmts(db).endExpired.run(idleBefore.toISOString(), createdBefore.toISOString());
