// The audit log in PostgreSQL: the same rows as SQLite's, written by the transaction that made the change.
import { auditPageOf, auditPageSql, auditParams, type AuditEntry, type AuditPage, type AuditQuery } from '../audit.ts';
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

const PAGE_SQL = auditPageSql((n) => `$${n}::${n === 6 || n === 7 ? 'int' : 'text'}`, ' COLLATE "C"');

export async function auditPagePg(pool: Pool, query: AuditQuery = {}): Promise<AuditPage> {
  const { rows } = await pool.query<Parameters<typeof auditPageOf>[0][number]>(PAGE_SQL, auditParams(query));
  return auditPageOf(rows);
}
