// The audit log in PostgreSQL: the same rows as SQLite's, written by the transaction that made the change.
import { AUDIT_DEFAULT_LIMIT, auditRowOf, type AuditEntry, type AuditQuery, type AuditRow } from '../audit.ts';
import type { Pool, PoolClient } from './connect.ts';

export async function appendAuditPg(c: PoolClient, e: AuditEntry): Promise<void> {
  await c.query(
    'INSERT INTO audit_log (at, actor, action, facility_id, key_id, detail) VALUES ($1, $2, $3, $4, $5, $6)',
    [e.at, e.actor, e.action, e.facility_id, e.key_id, JSON.stringify(e.detail)],
  );
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
