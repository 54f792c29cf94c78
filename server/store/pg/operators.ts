// Panel operators and their sessions in PostgreSQL: the same rows and rules as SQLite's (../operators.ts).
import type { SessionRow } from '../../domain/sessions.ts';
import {
  infoOfOperator,
  newOperatorRow,
  normalEmail,
  operatorExists,
  unknownOperator,
  type OperatorInfo,
  type OperatorRow,
} from '../operators.ts';
import { inTransaction, type Pool } from './connect.ts';

const COLS = 'id, email, password_hash, created_at, password_changed_at';

export async function addOperatorPg(pool: Pool, email: string, passwordHash: string): Promise<OperatorInfo> {
  const r = newOperatorRow(email, passwordHash);
  const { rowCount } = await pool.query(
    `INSERT INTO operators (${COLS}) VALUES ($1, $2, $3, $4, $5) ON CONFLICT (email) DO NOTHING`,
    [r.id, r.email, r.password_hash, r.created_at, r.password_changed_at],
  );
  if (rowCount === 0) throw operatorExists(r.email);
  return infoOfOperator(r);
}

export async function listOperatorsPg(pool: Pool): Promise<OperatorInfo[]> {
  const { rows } = await pool.query<OperatorRow>(`SELECT ${COLS} FROM operators ORDER BY email COLLATE "C"`);
  return rows.map(infoOfOperator);
}

export async function operatorPg(pool: Pool, by: 'email' | 'id', value: string): Promise<OperatorRow | undefined> {
  const v = by === 'email' ? normalEmail(value) : value;
  const { rows } = await pool.query<OperatorRow>(`SELECT ${COLS} FROM operators WHERE ${by} = $1`, [v]);
  return rows[0];
}

export async function removeOperatorPg(pool: Pool, email: string): Promise<OperatorInfo> {
  const { rows } = await pool.query<OperatorRow>(`DELETE FROM operators WHERE email = $1 RETURNING ${COLS}`, [
    normalEmail(email),
  ]);
  if (!rows[0]) throw unknownOperator(normalEmail(email));
  return infoOfOperator(rows[0]);
}

export async function setOperatorPasswordPg(pool: Pool, email: string, hash: string, now = new Date()) {
  return inTransaction(pool, async (c) => {
    const { rows } = await c.query<OperatorRow>(
      `UPDATE operators SET password_hash = $2, password_changed_at = $3 WHERE email = $1 RETURNING ${COLS}`,
      [normalEmail(email), hash, now.toISOString()],
    );
    if (!rows[0]) throw unknownOperator(normalEmail(email));
    await c.query('DELETE FROM operator_sessions WHERE operator_id = $1', [rows[0].id]);
    return infoOfOperator(rows[0]);
  });
}

export async function createSessionPg(pool: Pool, s: SessionRow): Promise<void> {
  await pool.query(
    'INSERT INTO operator_sessions (digest, operator_id, csrf, created_at, seen_at) VALUES ($1, $2, $3, $4, $5)',
    [s.digest, s.operator_id, s.csrf, s.created_at, s.seen_at],
  );
}

export async function sessionPg(pool: Pool, digest: string): Promise<SessionRow | undefined> {
  const { rows } = await pool.query<SessionRow>('SELECT * FROM operator_sessions WHERE digest = $1', [digest]);
  return rows[0];
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
