// One store interface, two implementations: the SQLite file (the embedded default) and PostgreSQL (for several API nodes).
import type { ImportFile } from '../schemas/import.ts';
import { openDb, schemaVersionOf, type OpenOptions } from './db.ts';
import { applyImport, facilityData, listFacilities, type FacilityCount, type ImportSummary } from './facilities.ts';
import type { FacilityData } from '../domain/facility.ts';
import { Mirror } from './pg/mirror.ts';
import { sqliteLedger, type SnapshotLedger } from './ledger.ts';
import { pgLedger } from './pg/snapshot-ledger.ts';
import {
  createKey,
  listKeys,
  recordLastUse,
  revokeKeyOnce,
  updateKey,
  type KeyChanges,
  type KeyInfo,
  type NewKeyOptions,
} from './keys.ts';
import { openPg, pgFailure, pgSchemaVersion, type Pool } from './pg/connect.ts';
import { importPg } from './pg/import.ts';
import { recordClicksPg, referralRowsPg } from './pg/referrals.ts';
import { recordClicks, referralRows, type ClickDelta, type ReferralQuery, type ReferralRow } from './referrals.ts';
import { createKeyPg, listKeysPg, recordLastUsePg, revokeKeyPg, updateKeyPg } from './pg/keys.ts';
import { listFacilitiesPg } from './pg/facilities.ts';
import {
  facilityHead,
  facilityPage,
  type FacilityPage,
  type FacilityQuery,
  type PanelFacilityListings,
} from './panel.ts';
import { facilityPagePg } from './pg/panel.ts';
import { panelListingPage, type PanelListingPage, type PanelListingQuery } from './panel-listing-page.ts';
import { checkLocation, describeLocation, isPostgresUrl } from './pg/location.ts';
import {
  appendAudit,
  appendAuditRows,
  auditPage,
  CLI_ACTOR,
  importAudit,
  keyAudit,
  type AuditEntry,
  type AuditPage,
  type AuditQuery,
  type AuditRow,
} from './audit.ts';
import { pgAccounts, sqliteAccounts, type AccountStore } from './accounts.ts';
import { appendAuditRowsPg, auditPagePg } from './pg/audit.ts';
import type { LoginAdmit, LoginGate, LoginLimits, LoginTry } from '../domain/login-limits.ts';
import { beginLogin, loginSucceeded } from './login-limits.ts';
import { beginLoginPg, loginSucceededPg } from './pg/login-limits.ts';
import { pgWebhooks, sqliteWebhooks, type WebhookStore } from './webhook-store.ts';
import { importEventsAfter, importEventsBefore } from './webhook-import.ts';
import { runSqlite } from './steps.ts';

export type NewKey = NewKeyOptions;

/** What the commands do with operator data, whichever database holds it. */
export interface Store extends AccountStore {
  /** The database as messages show it (a URL without its password). */
  readonly location: string;
  /** The --db value it was opened with, password included, for a process of its own to open: never to be shown. */
  connectionString(): string;
  schemaVersion(): Promise<number>;
  /** Each change of data or keys is written to the audit log in its own transaction, by `actor` (default: the CLI). */
  applyImport(file: ImportFile, actor?: string): Promise<ImportSummary>;
  listFacilities(): Promise<FacilityCount[]>;
  /** A facility's active listings with its rules, as the API reads them; undefined if unknown. */
  facilityData(id: string): Promise<FacilityData | undefined>;
  /** The panel's list: one page of facilities the search matches, with their counts and free units, in one query. */
  facilityPage(query: FacilityQuery): Promise<FacilityPage>;
  /** A facility's name and currency, without its listings; undefined if unknown. */
  facilityHead(id: string): Promise<PanelFacilityListings['facility'] | undefined>;
  /** One page of a facility's listings as the panel's Listings tab filters and orders them (no photos or descriptions). */
  panelListingPage(id: string, query: PanelListingQuery): Promise<PanelListingPage | undefined>;
  createKey(opts: NewKey, actor?: string): Promise<{ key: string; info: KeyInfo }>;
  listKeys(facilityId?: string): Promise<KeyInfo[]>;
  revokeKey(id: string, actor?: string): Promise<KeyInfo>;
  updateKey(id: string, changes: KeyChanges, actor?: string): Promise<KeyInfo>;
  recordLastUse(uses: ReadonlyMap<string, Date>): Promise<void>;
  /** Adds counted clicks (a serving node's batch) to their rows. */
  recordClicks(deltas: readonly ClickDelta[]): Promise<void>;
  /** Clicks and unique visitors on partners' rent links, summed as the query asks. */
  referrals(query: ReferralQuery): Promise<ReferralRow[]>;
  listAudit(query?: AuditQuery): Promise<AuditRow[]>;
  /** The rows the filters match, newest first, a page of them, and how many match in all. */
  auditPage(query?: AuditQuery): Promise<AuditPage>;
  /** Rows of actions whose change is outside the database (a snapshot publish), written once it is done. */
  appendAudit(entries: readonly AuditEntry[]): Promise<void>;
  /** What a snapshot publish reads and records, on this store (the panel's "publish now"). */
  snapshotLedger(): SnapshotLedger;
  /**
   * The login limits, shared by every panel on this database: refused, turned away by `admit` (uncounted), or the try
   * counted as a failure until cleared.
   */
  beginLogin(login: LoginTry, limits: LoginLimits, now: Date, admit: LoginAdmit): Promise<LoginGate>;
  /** The password was right: this try's count is cleared, and the account's failures unless it was `byDevice`. */
  loginSucceeded(login: LoginTry, attempt: number, byDevice: boolean): Promise<void>;
  /** Webhook endpoints of keys and their outbox (an import queues its events in its own transaction). */
  readonly webhooks: WebhookStore;
  close(): Promise<void>;
}

/** Opens the store a --db value names: a postgres:// URL or a SQLite file (options apply to the file). */
export async function openStore(location: string, options: OpenOptions = {}): Promise<Store> {
  checkLocation(location);
  if (isPostgresUrl(location)) return pgStore(await openPg(location, { migrate: options.migrate }), location);
  const db = openDb(location, options);
  // IMMEDIATE: the change and its audit row take the write lock together, as an import alone does.
  const audited = <T>(fn: () => T) => db.transaction(fn).immediate();
  return {
    location,
    connectionString: () => location,
    schemaVersion: async () => schemaVersionOf(db),
    applyImport: async (file, actor = CLI_ACTOR) =>
      audited(() => {
        const now = new Date();
        const before = runSqlite(db, importEventsBefore(file.facilities.map((f) => f.id)));
        const summary = applyImport(db, file, now);
        runSqlite(db, importEventsAfter(before, now.getTime()));
        appendAudit(db, importAudit(actor, file, summary));
        return summary;
      }),
    listFacilities: async () => listFacilities(db),
    facilityData: async (id) => facilityData(db, id),
    facilityPage: async (query) => facilityPage(db, query),
    facilityHead: async (id) => facilityHead(db, id),
    panelListingPage: async (id, query) => panelListingPage(db, id, query),
    createKey: async (opts, actor = CLI_ACTOR) =>
      audited(() => {
        const created = createKey(db, opts);
        appendAudit(db, keyAudit('key.create', actor, created.info));
        return created;
      }),
    recordClicks: async (deltas) => recordClicks(db, deltas),
    referrals: async (query) => referralRows(db, query),
    listKeys: async (facilityId) => listKeys(db, facilityId),
    revokeKey: async (id, actor = CLI_ACTOR) =>
      audited(() => {
        const { info, changed } = revokeKeyOnce(db, id);
        if (changed) appendAudit(db, keyAudit('key.revoke', actor, info));
        return info;
      }),
    updateKey: async (id, changes, actor = CLI_ACTOR) =>
      audited(() => {
        const info = updateKey(db, id, changes);
        appendAudit(db, keyAudit('key.update', actor, info));
        return info;
      }),
    recordLastUse: async (uses) => recordLastUse(db, uses),
    listAudit: async (query) => auditPage(db, query).rows,
    auditPage: async (query) => auditPage(db, query),
    appendAudit: async (entries) => appendAuditRows(db, entries),
    snapshotLedger: () => sqliteLedger(db),
    ...sqliteAccounts(db),
    beginLogin: async (login, limits, now, admit) => beginLogin(db, login, limits, now, admit),
    loginSucceeded: async (login, attempt, byDevice) => loginSucceeded(db, login, attempt, byDevice),
    webhooks: sqliteWebhooks(db),
    close: async () => void db.close(),
  };
}

function pgStore(pool: Pool, location: string): Store {
  // Read through the serving nodes' own copy, so the panel shows what they answer; made on first use.
  let mirror: Mirror | undefined;
  const mirrorOf = () => (mirror ??= new Mirror(pool));
  const mirrored = async () => {
    await mirrorOf().sync();
    return mirrorOf().db;
  };
  // A driver error becomes one line naming the server, the credentials or the database; ours pass as they are.
  const named =
    <A extends unknown[], T>(fn: (...args: A) => Promise<T>) =>
    (...args: A): Promise<T> =>
      fn(...args).catch((err: unknown) => Promise.reject(pgFailure(err, location)));
  return {
    location: describeLocation(location),
    connectionString: () => location,
    schemaVersion: named(() => pgSchemaVersion(pool)),
    applyImport: named((file, actor) => importPg(pool, file, undefined, actor)),
    listFacilities: named(() => listFacilitiesPg(pool)),
    facilityData: named(async (id) => facilityData(await mirrored(), id)),
    facilityPage: named((query) => facilityPagePg(pool, query)),
    facilityHead: named(async (id) => facilityHead(await mirrored(), id)),
    panelListingPage: named(async (id, query) => panelListingPage(await mirrored(), id, query)),
    createKey: named((opts, actor) => createKeyPg(pool, opts, undefined, actor)),
    listKeys: named((facilityId) => listKeysPg(pool, facilityId)),
    revokeKey: named((id, actor) => revokeKeyPg(pool, id, undefined, actor)),
    updateKey: named((id, changes, actor) => updateKeyPg(pool, id, changes, actor)),
    recordClicks: named((deltas) => recordClicksPg(pool, deltas)),
    referrals: named((query) => referralRowsPg(pool, query)),
    recordLastUse: named((uses) => recordLastUsePg(pool, uses)),
    listAudit: named(async (query) => (await auditPagePg(pool, query)).rows),
    auditPage: named((query) => auditPagePg(pool, query)),
    appendAudit: named((entries) => appendAuditRowsPg(pool, entries)),
    snapshotLedger: () => pgLedger(pool, mirrorOf(), location),
    ...pgAccounts(pool, named),
    beginLogin: named((login, limits, now, admit) => beginLoginPg(pool, login, limits, now, admit)),
    loginSucceeded: named((login, attempt, byDevice) => loginSucceededPg(pool, login, attempt, byDevice)),
    webhooks: pgWebhooks(pool, (p) => p.catch((err: unknown) => Promise.reject(pgFailure(err, location)))),
    close: () => {
      mirror?.close();
      return pool.end();
    },
  };
}
