// Panel operators and their sessions in PostgreSQL: the same rows and rules as SQLite's (../operators.ts).
import type { Role } from '../../domain/roles.ts';
import type { SessionRow } from '../../domain/sessions.ts';
import { accountAudit } from '../audit.ts';
import {
  checkOwnerRemovable,
  checkOwnersLeft,
  infoOfOperator,
  newOperatorRow,
  operatorExists,
  roleOfNew,
  sessionOfStored,
  storedSession,
  unknownOperator,
  type OperatorInfo,
  type OperatorRow,
  type StoredSession,
} from '../operators.ts';
import { emailForms, emailKey } from '../../domain/emails.ts';
import { appendAuditPg } from './audit.ts';
import { inTransaction, type Pool, type PoolClient } from './connect.ts';

const COLS =
  'id, email, password_hash, created_at, password_changed_at, role, totp_secret, totp_enabled_at, totp_last_step, recovery_codes';

/** Reads as SQLite's: the step a number, not bigint's string. */
const rowOf = (r: OperatorRow): OperatorRow => ({
  ...r,
  totp_last_step: r.totp_last_step === null ? null : Number(r.totp_last_step),
});

/** Account changes take this lock first: two at once cannot both pass the "one owner left" check. */
const lockOperators = (c: PoolClient) => c.query('LOCK TABLE operators IN SHARE ROW EXCLUSIVE MODE');

export async function addOperatorPg(pool: Pool, email: string, hash: string, role: Role | undefined, actor: string) {
  return inTransaction(pool, async (c): Promise<OperatorInfo> => {
    await lockOperators(c);
    const { rows } = await c.query<{ n: number }>('SELECT count(*)::int AS n FROM operators');
    const r = newOperatorRow(email, hash, roleOfNew(role, rows[0]!.n));
    const { rowCount } = await c.query(
      `INSERT INTO operators (id, email, password_hash, created_at, password_changed_at, role)
       VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (email) DO NOTHING`,
      [r.id, r.email, r.password_hash, r.created_at, r.password_changed_at, r.role],
    );
    if (rowCount === 0) throw operatorExists(r.email);
    await appendAuditPg(c, accountAudit('operator.add', actor, r.email, { role: r.role }));
    return infoOfOperator(r);
  });
}

export async function listOperatorsPg(pool: Pool): Promise<OperatorInfo[]> {
  const { rows } = await pool.query<OperatorRow>(`SELECT ${COLS} FROM operators ORDER BY email COLLATE "C"`);
  return rows.map((r) => infoOfOperator(rowOf(r)));
}

export async function operatorPg(
  q: Pool | PoolClient,
  by: 'email' | 'id',
  value: string,
): Promise<OperatorRow | undefined> {
  if (by === 'id') {
    const { rows } = await q.query<OperatorRow>(`SELECT ${COLS} FROM operators WHERE id = $1`, [value]);
    return rows[0] && rowOf(rows[0]);
  }
  // As SQLite's: the account stored as typed first, then the normal form.
  const { asTyped, normal } = emailForms(value);
  const { rows } = await q.query<OperatorRow>(
    `SELECT ${COLS} FROM operators WHERE email IN ($1, $2) ORDER BY email = $1 DESC LIMIT 1`,
    [asTyped, normal],
  );
  return rows[0] && rowOf(rows[0]);
}

/** The account, locked with the others, in a transaction that changes it; unknown is refused. */
export async function lockedOperator(c: PoolClient, email: string): Promise<OperatorRow> {
  await lockOperators(c);
  const row = await operatorPg(c, 'email', email);
  if (!row) throw unknownOperator(emailKey(email));
  return row;
}

async function ownersPg(c: PoolClient): Promise<number> {
  const { rows } = await c.query<{ n: number }>("SELECT count(*)::int AS n FROM operators WHERE role = 'owner'");
  return rows[0]!.n;
}

export async function removeOperatorPg(pool: Pool, email: string, actor: string): Promise<OperatorInfo> {
  return inTransaction(pool, async (c) => {
    const row = await lockedOperator(c, email);
    const { rows } = await c.query<{ n: number }>('SELECT count(*)::int AS n FROM operators');
    checkOwnerRemovable(await ownersPg(c), rows[0]!.n, row);
    await c.query('DELETE FROM operators WHERE id = $1', [row.id]);
    await appendAuditPg(c, accountAudit('operator.remove', actor, row.email));
    return infoOfOperator(row);
  });
}

export async function setOperatorPasswordPg(pool: Pool, email: string, hash: string, actor: string) {
  return inTransaction(pool, async (c) => {
    const row = await lockedOperator(c, email);
    const { rows } = await c.query<OperatorRow>(
      `UPDATE operators SET password_hash = $2, password_changed_at = $3 WHERE id = $1 RETURNING ${COLS}`,
      [row.id, hash, new Date().toISOString()],
    );
    await endSessionsOfPg(c, row.id);
    await appendAuditPg(c, accountAudit('operator.password', actor, row.email));
    return infoOfOperator(rowOf(rows[0]!));
  });
}

export async function setOperatorRolePg(pool: Pool, email: string, role: Role, actor: string) {
  return inTransaction(pool, async (c) => {
    const row = await lockedOperator(c, email);
    if (row.role === role) return infoOfOperator(row);
    checkOwnersLeft(await ownersPg(c), row, role);
    await c.query('UPDATE operators SET role = $2 WHERE id = $1', [row.id, role]);
    await endSessionsOfPg(c, row.id);
    await appendAuditPg(c, accountAudit('operator.role', actor, row.email, { from: row.role, to: role }));
    return infoOfOperator({ ...row, role });
  });
}

/** As SQLite's endSessionsOf: the sessions but `except`, and the logins waiting for their second step. */
export async function endSessionsOfPg(q: Pool | PoolClient, operatorId: string, except: string | null = null) {
  await q.query('DELETE FROM operator_sessions WHERE operator_id = $1 AND digest IS DISTINCT FROM $2', [
    operatorId,
    except,
  ]);
  await q.query('DELETE FROM login_pending WHERE operator_id = $1', [operatorId]);
}

export async function createSessionPg(pool: Pool, s: SessionRow): Promise<void> {
  await pool.query(
    `INSERT INTO operator_sessions (digest, operator_id, csrf, created_at, seen_at, two_factor)
     VALUES ($1, $2, $3, $4, $5, $6)`,
    [s.digest, s.operator_id, s.csrf, s.created_at, s.seen_at, storedSession(s).two_factor],
  );
}

export async function sessionPg(pool: Pool, digest: string): Promise<SessionRow | undefined> {
  const { rows } = await pool.query<StoredSession>('SELECT * FROM operator_sessions WHERE digest = $1', [digest]);
  return rows[0] && sessionOfStored(rows[0]);
}

/** As SQLite's keepOnlyEnrollingSession: the enrolling session complete, the account's others ended, audited. */
export async function keepOnlyEnrollingSessionPg(c: PoolClient, operatorId: string, digest: string, email: string) {
  await c.query('UPDATE operator_sessions SET two_factor = 1 WHERE digest = $1', [digest]);
  await endSessionsOfPg(c, operatorId, digest);
  await appendAuditPg(c, accountAudit('logout.everywhere', email, email));
}

export async function touchSessionPg(pool: Pool, digest: string, at: Date): Promise<void> {
  await pool.query('UPDATE operator_sessions SET seen_at = $2 WHERE digest = $1', [digest, at.toISOString()]);
}

export async function endExpiredSessionsPg(pool: Pool, idleBefore: Date, createdBefore: Date): Promise<void> {
  await pool.query('DELETE FROM operator_sessions WHERE seen_at < $1 OR created_at < $2', [
    idleBefore.toISOString(),
    createdBefore.toISOString(),
  ]);
}

export async function endSessionPg(pool: Pool, digest: string): Promise<void> {
  await pool.query('DELETE FROM operator_sessions WHERE digest = $1', [digest]);
}
