// The audit log: who did what to keys, data and snapshots, and when; written with the change itself.
import type { ImportFile } from '../schemas/import.ts';
import type { Db } from './db.ts';
import type { ImportSummary } from './facilities.ts';
import type { KeyInfo } from './keys.ts';
import { statementsFor } from './statements.ts';

export type AuditAction = 'key.create' | 'key.revoke' | 'key.update' | 'import' | 'snapshot.publish';

/** One action; `detail` never holds a key, only its id and hint. */
export interface AuditEntry {
  at: string;
  actor: string;
  action: AuditAction;
  facility_id: string | null;
  key_id: string | null;
  detail: Record<string, unknown>;
}

export type AuditRow = AuditEntry & { id: number };

export interface AuditQuery {
  facilityId?: string;
  limit?: number;
}

/** Whoever acts from the command line: the panel names its operator instead. */
export const CLI_ACTOR = 'cli';
export const AUDIT_DEFAULT_LIMIT = 100;

export function keyAudit(action: AuditAction, actor: string, key: KeyInfo, now = new Date()): AuditEntry {
  const detail =
    action === 'key.update'
      ? { label: key.label, rate_per_s: key.rate_per_s, burst: key.burst, allowed_origins: key.allowed_origins }
      : { label: key.label, hint: key.hint };
  return { at: now.toISOString(), actor, action, facility_id: key.facility_id, key_id: key.id, detail };
}

export function importAudit(actor: string, file: ImportFile, summary: ImportSummary, now = new Date()): AuditEntry {
  const ids = file.facilities.map((f) => f.id);
  const detail = { ...summary, facility_ids: ids };
  return {
    at: now.toISOString(),
    actor,
    action: 'import',
    facility_id: ids.length === 1 ? ids[0]! : null,
    key_id: null,
    detail,
  };
}

/** Who publishes snapshots, and the store their rows go to once the new versions are on the target. */
export interface PublishAudit {
  actor: string;
  to: { appendAudit(entries: readonly AuditEntry[]): Promise<void> };
}

/** One facility's new version on a target (a folder or s3://BUCKET/PREFIX), and the key that signed it. */
export interface PublishedVersion {
  facilityId: string;
  version: number;
  target: string;
  kid: string;
}

export function publishAudit(actor: string, published: PublishedVersion, now = new Date()): AuditEntry {
  const { facilityId, version, target, kid } = published;
  const detail = { version, target, kid };
  return { at: now.toISOString(), actor, action: 'snapshot.publish', facility_id: facilityId, key_id: null, detail };
}

/** A row as both stores read it back (detail is stored as JSON text). */
export function auditRowOf(row: Omit<AuditRow, 'detail'> & { detail: string }): AuditRow {
  return { ...row, id: Number(row.id), detail: JSON.parse(row.detail) as Record<string, unknown> };
}

const stmts = statementsFor((db) => ({
  insert: db.prepare(`INSERT INTO audit_log (at, actor, action, facility_id, key_id, detail)
    VALUES (@at, @actor, @action, @facility_id, @key_id, @detail)`),
  recent: db.prepare<[number], AuditRow & { detail: string }>('SELECT * FROM audit_log ORDER BY id DESC LIMIT ?'),
  recentOf: db.prepare<[string, number], AuditRow & { detail: string }>(
    'SELECT * FROM audit_log WHERE facility_id = ? ORDER BY id DESC LIMIT ?',
  ),
}));

export function appendAudit(db: Db, entry: AuditEntry): void {
  stmts(db).insert.run({ ...entry, detail: JSON.stringify(entry.detail) });
}

/** Rows of actions done outside the database (a snapshot publish), in one transaction. */
export function appendAuditRows(db: Db, entries: readonly AuditEntry[]): void {
  if (entries.length > 0) db.transaction(() => entries.forEach((e) => appendAudit(db, e)))();
}

/** Newest first. */
export function listAudit(db: Db, query: AuditQuery = {}): AuditRow[] {
  const s = stmts(db);
  const limit = query.limit ?? AUDIT_DEFAULT_LIMIT;
  const rows = query.facilityId ? s.recentOf.all(query.facilityId, limit) : s.recent.all(limit);
  return rows.map(auditRowOf);
}
