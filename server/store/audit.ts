// The audit log: who did what to keys, data, snapshots and accounts, and when; written with the change itself.
import { userInfo } from 'node:os';
import type { ImportFile } from '../schemas/import.ts';
import type { Db } from './db.ts';
import type { ImportSummary } from './facilities.ts';
import type { KeyInfo } from './keys.ts';
import { statementsFor } from './statements.ts';

export const AUDIT_ACTIONS = [
  'key.create',
  'key.revoke',
  'key.update',
  'import',
  'snapshot.publish',
  'snapshot.export',
  'snapshot.withdraw',
  'operator.add',
  'operator.remove',
  'operator.password',
  'operator.role',
  'operator.email_kept',
  'login',
  'login.code_wrong',
  'logout.everywhere',
  '2fa.enrol',
  '2fa.recovery_used',
  '2fa.reset',
  'refused',
  'webhook.add',
  'webhook.remove',
  'webhook.rotate',
  'webhook.enable',
  'webhook.replay',
  'webhook.test',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

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

/** Every filter is optional; `from` and `to` are ISO 8601 times, `to` excluded. */
export interface AuditQuery {
  facilityId?: string;
  actor?: string;
  action?: string;
  from?: string;
  to?: string;
  limit?: number;
  offset?: number;
}

/** A page of rows and how many match in all. */
export interface AuditPage {
  total: number;
  rows: AuditRow[];
}

/** The OS user the command runs as, when the system knows one (a container may not). */
function osUser(): string {
  try {
    return userInfo().username;
  } catch {
    return process.env.USER || 'unknown';
  }
}

/** Whoever acts from the command line, as `cli:<OS user>`: the panel names its operator instead. */
export const CLI_ACTOR = `cli:${osUser()}`;
export const AUDIT_DEFAULT_LIMIT = 100;

export function keyAudit(action: AuditAction, actor: string, key: KeyInfo, now = new Date()): AuditEntry {
  const limits = { rate_per_s: key.rate_per_s, burst: key.burst, allowed_origins: key.allowed_origins };
  // A new key's row says what it was given, as an update's says what it became; a revocation names the key only.
  const detail =
    action === 'key.update'
      ? { label: key.label, ref: key.ref, ...limits }
      : action === 'key.create'
        ? { label: key.label, ref: key.ref, hint: key.hint, ...limits }
        : { label: key.label, ref: key.ref, hint: key.hint };
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
  /** What the rows say was done: `snapshot export` writes a folder's versions as exports (default: a publish). */
  action?: 'snapshot.publish' | 'snapshot.export';
  to: { appendAudit(entries: readonly AuditEntry[]): Promise<void> };
}

/** One facility's new version on a target (a folder or s3://BUCKET/PREFIX), and the key that signed it. */
export interface PublishedVersion {
  facilityId: string;
  version: number;
  target: string;
  kid: string;
}

/** A version written to a target: published, exported to a folder, or a withdrawal's tombstone. */
export function publishAudit(
  actor: string,
  published: PublishedVersion,
  action: 'snapshot.publish' | 'snapshot.export' | 'snapshot.withdraw' = 'snapshot.publish',
  now = new Date(),
): AuditEntry {
  const { facilityId, version, target, kid } = published;
  const detail = { version, target, kid };
  return { at: now.toISOString(), actor, action, facility_id: facilityId, key_id: null, detail };
}

/** An action on an account or a login: `operator` is the account acted on, `detail` what else says what happened. */
export function accountAudit(
  action: AuditAction,
  actor: string,
  operator: string,
  detail: Record<string, unknown> = {},
  now = new Date(),
): AuditEntry {
  return { at: now.toISOString(), actor, action, facility_id: null, key_id: null, detail: { operator, ...detail } };
}

/** A row as both stores read it back (detail is stored as JSON text). */
export function auditRowOf(row: Omit<AuditRow, 'detail'> & { detail: string }): AuditRow {
  return { ...row, id: Number(row.id), detail: JSON.parse(row.detail) as Record<string, unknown> };
}

/**
 * One statement for every combination of filters, in either dialect (`p(n)` names the n-th parameter, from 1): an
 * absent filter is NULL and matches all. An actor is an email (or cli:<OS user>), one address in any case: compared
 * lower-cased. Times compare byte for byte, as ISO 8601 text sorts. A facility's rows include
 * the imports of several facilities that name it among their `facility_ids`.
 */
export function auditPageSql(p: (n: number) => string, collateC: string): string {
  return `SELECT id, at, actor, action, facility_id, key_id, detail, count(*) OVER () AS total FROM audit_log
    WHERE (${p(1)} IS NULL OR facility_id = ${p(1)}
        OR (facility_id IS NULL AND action = 'import' AND detail LIKE ${p(8)} ESCAPE '!'))
      AND (${p(2)} IS NULL OR lower(actor) = lower(${p(2)}))
      AND (${p(3)} IS NULL OR action = ${p(3)}) AND (${p(4)} IS NULL OR at${collateC} >= ${p(4)})
      AND (${p(5)} IS NULL OR at${collateC} < ${p(5)})
    ORDER BY id DESC LIMIT ${p(6)} OFFSET ${p(7)}`;
}

/** The statement's parameters, in its order. */
export function auditParams(q: AuditQuery): (string | number | null)[] {
  const or = (v: string | undefined) => (v === undefined || v === '' ? null : v);
  return [
    or(q.facilityId),
    or(q.actor),
    or(q.action),
    or(q.from),
    or(q.to),
    q.limit ?? AUDIT_DEFAULT_LIMIT,
    q.offset ?? 0,
    or(q.facilityId) && importNamingPattern(q.facilityId!),
  ];
}

/** LIKE's pattern for an import's detail whose `facility_ids` (its last member) hold this id, quoted as JSON. */
const importNamingPattern = (facilityId: string) =>
  `%"facility_ids":[%${JSON.stringify(facilityId).replace(/[!%_]/g, '!$&')}%`;

type PageRow = AuditRow & { detail: string; total: number | string };

/** Rows as both stores read them back, and the total (absent on a page past the end: then 0). */
export function auditPageOf(rows: readonly PageRow[]): AuditPage {
  return { total: Number(rows[0]?.total ?? 0), rows: rows.map(({ total: _, ...r }) => auditRowOf(r)) };
}

const stmts = statementsFor((db) => ({
  insert: db.prepare(`INSERT INTO audit_log (at, actor, action, facility_id, key_id, detail)
    VALUES (@at, @actor, @action, @facility_id, @key_id, @detail)`),
  page: db.prepare<[Record<string, string | number | null>], PageRow>(auditPageSql((n) => `@p${n}`, '')),
}));

export function appendAudit(db: Db, entry: AuditEntry): void {
  stmts(db).insert.run({ ...entry, detail: JSON.stringify(entry.detail) });
}

/** Rows of actions done outside the database (a snapshot publish), in one transaction. */
export function appendAuditRows(db: Db, entries: readonly AuditEntry[]): void {
  if (entries.length > 0) db.transaction(() => entries.forEach((e) => appendAudit(db, e)))();
}

/** Newest first: the rows the filters match, `limit` of them from `offset`, and how many match in all. */
export function auditPage(db: Db, query: AuditQuery = {}): AuditPage {
  const params = Object.fromEntries(auditParams(query).map((v, i) => [`p${i + 1}`, v]));
  return auditPageOf(stmts(db).page.all(params));
}
