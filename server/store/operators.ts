// Panel operators and their sessions in SQLite: password hashes and session-token digests, never the secrets.
import { ListingsError } from '../errors.ts';
import { randomAlphanumeric } from '../domain/keys.ts';
import type { SessionRow } from '../domain/sessions.ts';
import type { Db } from './db.ts';
import { statementsFor } from './statements.ts';

export interface OperatorRow {
  id: string;
  email: string;
  password_hash: string;
  created_at: string;
  password_changed_at: string;
}

/** What `operators list` shows: never the hash. */
export type OperatorInfo = Omit<OperatorRow, 'password_hash'>;

export function infoOfOperator({ password_hash: _hash, ...info }: OperatorRow): OperatorInfo {
  return info;
}

/** Emails compare case-insensitively: one account per address however it is typed. */
export function normalEmail(email: string): string {
  const e = email.trim().toLowerCase();
  if (!/^[^@\s]+@[^@\s]+$/.test(e) || e.length > 254)
    throw new ListingsError('invalid_email', `"${email}" is not an email address`);
  return e;
}

export function newOperatorRow(email: string, passwordHash: string, now = new Date()): OperatorRow {
  const at = now.toISOString();
  return {
    id: `op_${randomAlphanumeric(16)}`,
    email: normalEmail(email),
    password_hash: passwordHash,
    created_at: at,
    password_changed_at: at,
  };
}

export const operatorExists = (email: string) =>
  new ListingsError('operator_exists', `an operator with email ${email} already exists`);
export const unknownOperator = (email: string) =>
  new ListingsError('unknown_operator', `no operator with email ${email}`);

const stmts = statementsFor((db) => ({
  insert: db.prepare(`INSERT INTO operators (id, email, password_hash, created_at, password_changed_at)
    VALUES (@id, @email, @password_hash, @created_at, @password_changed_at)`),
  byEmail: db.prepare<[string], OperatorRow>('SELECT * FROM operators WHERE email = ?'),
  byId: db.prepare<[string], OperatorRow>('SELECT * FROM operators WHERE id = ?'),
  all: db.prepare<[], OperatorRow>('SELECT * FROM operators ORDER BY email'),
  remove: db.prepare('DELETE FROM operators WHERE id = ?'),
  passwd: db.prepare('UPDATE operators SET password_hash = ?, password_changed_at = ? WHERE id = ?'),
  endSessionsOf: db.prepare('DELETE FROM operator_sessions WHERE operator_id = ?'),
  insertSession: db.prepare(`INSERT INTO operator_sessions (digest, operator_id, csrf, created_at, seen_at)
    VALUES (@digest, @operator_id, @csrf, @created_at, @seen_at)`),
  session: db.prepare<[string], SessionRow>('SELECT * FROM operator_sessions WHERE digest = ?'),
  touch: db.prepare('UPDATE operator_sessions SET seen_at = ? WHERE digest = ?'),
  endSession: db.prepare('DELETE FROM operator_sessions WHERE digest = ?'),
  endExpired: db.prepare('DELETE FROM operator_sessions WHERE seen_at < ? OR created_at < ?'),
}));

export function addOperator(db: Db, email: string, passwordHash: string): OperatorInfo {
  const row = newOperatorRow(email, passwordHash);
  if (stmts(db).byEmail.get(row.email)) throw operatorExists(row.email);
  stmts(db).insert.run(row);
  return infoOfOperator(row);
}

export const listOperators = (db: Db): OperatorInfo[] => stmts(db).all.all().map(infoOfOperator);
export const operatorByEmail = (db: Db, email: string) => stmts(db).byEmail.get(normalEmail(email));
export const operatorById = (db: Db, id: string) => stmts(db).byId.get(id);

function existing(db: Db, email: string): OperatorRow {
  const row = operatorByEmail(db, email);
  if (!row) throw unknownOperator(normalEmail(email));
  return row;
}

/** Removing an account ends its sessions (they cascade). */
export function removeOperator(db: Db, email: string): OperatorInfo {
  const row = existing(db, email);
  stmts(db).remove.run(row.id);
  return infoOfOperator(row);
}

/** A new password ends every session of the account: whoever knew the old one is logged out. */
export function setOperatorPassword(db: Db, email: string, passwordHash: string, now = new Date()): OperatorInfo {
  return db.transaction(() => {
    const row = existing(db, email);
    stmts(db).passwd.run(passwordHash, now.toISOString(), row.id);
    stmts(db).endSessionsOf.run(row.id);
    return infoOfOperator(operatorById(db, row.id)!);
  })();
}

export const createSession = (db: Db, row: SessionRow) => void stmts(db).insertSession.run(row);
export const sessionByDigest = (db: Db, digest: string) => stmts(db).session.get(digest);
export const touchSession = (db: Db, digest: string, at: Date) => void stmts(db).touch.run(at.toISOString(), digest);
export const endSession = (db: Db, digest: string) => void stmts(db).endSession.run(digest);

/** Sessions last seen before `idleBefore` or made before `createdBefore`: ended sessions nobody came back to. */
export const endExpiredSessions = (db: Db, idleBefore: Date, createdBefore: Date) =>
  void stmts(db).endExpired.run(idleBefore.toISOString(), createdBefore.toISOString());
