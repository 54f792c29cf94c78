// The audit log in PostgreSQL: the same rows as SQLite's, written by the transaction that made the change.
import { AUDIT_DEFAULT_LIMIT, auditRowOf, type AuditEntry, type AuditQuery, type AuditRow } from '../audit.ts';
import { inTransaction, type Pool, type PoolClient } from './connect.ts';

export async function appendAuditPg(c: PoolClient, e: AuditEntry): Promise<void> {
  await c.query(
    'INSERT INTO audit_log (at, actor, action, facility_id, key_id, detail) VALUES ($1, $2, $3, $4, $5, $6)',
    [e.at, e.actor, e.action, e.facility_id, e.key_id, JSON.stringify(e.detail)],
  );
}

/** Rows of actions done outside the database (a snapshot publish), in one transaction. */
export async function appendAuditRowsPg(pool: Pool, entries: readonly AuditEntry[]): Promise<void> {
  if (entries.length === 0) return;
  await inTransaction(pool, async (c) => {
    for (const e of entries) await appendAuditPg(c, e);
  });
}

export async function listAuditPg(pool: Pool, query: AuditQuery = {}): Promise<AuditRow[]> {
  const limit = query.limit ?? AUDIT_DEFAULT_LIMIT;
  const cols = 'id, at, actor, action, facility_id, key_id, detail';
  const { rows } = query.facilityId
    ? await pool.query(`SELECT ${cols} FROM audit_log WHERE facility_id = $1 ORDER BY id DESC LIMIT $2`, [
        query.facilityId,
        limit,
      ])
    : await pool.query(`SELECT ${cols} FROM audit_log ORDER BY id DESC LIMIT $1`, [limit]);
  return rows.map(auditRowOf);
}
