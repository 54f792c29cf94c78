// One store interface, two implementations: the SQLite file (the embedded default) and PostgreSQL (for several API nodes).
import type { ImportFile } from '../schemas/import.ts';
import { openDb, schemaVersionOf, type OpenOptions } from './db.ts';
import { applyImport, listFacilities, type FacilityCount, type ImportSummary } from './facilities.ts';
import { createKey, listKeys, recordLastUse, revokeKey, updateKey, type KeyInfo, type KeyLimits } from './keys.ts';
import { openPg, pgFailure, pgSchemaVersion, type Pool } from './pg/connect.ts';
import { importPg } from './pg/import.ts';
import { createKeyPg, listKeysPg, recordLastUsePg, revokeKeyPg, updateKeyPg } from './pg/keys.ts';
import { listFacilitiesPg } from './pg/facilities.ts';
import { checkLocation, describeLocation, isPostgresUrl } from './pg/location.ts';

export type NewKey = { facilityId: string; label?: string; prefix: string } & KeyLimits;

/** What the commands do with operator data, whichever database holds it. */
export interface Store {
  /** The database as messages show it (a URL without its password). */
  readonly location: string;
  schemaVersion(): Promise<number>;
  applyImport(file: ImportFile): Promise<ImportSummary>;
  listFacilities(): Promise<FacilityCount[]>;
  createKey(opts: NewKey): Promise<{ key: string; info: KeyInfo }>;
  listKeys(facilityId?: string): Promise<KeyInfo[]>;
  revokeKey(id: string): Promise<KeyInfo>;
  updateKey(id: string, changes: KeyLimits & { label?: string }): Promise<KeyInfo>;
  recordLastUse(uses: ReadonlyMap<string, Date>): Promise<void>;
  close(): Promise<void>;
}

/** Opens the store a --db value names: a postgres:// URL or a SQLite file (options apply to the file). */
export async function openStore(location: string, options: OpenOptions = {}): Promise<Store> {
  checkLocation(location);
  if (isPostgresUrl(location)) return pgStore(await openPg(location, { migrate: options.migrate }), location);
  const db = openDb(location, options);
  return {
    location,
    schemaVersion: async () => schemaVersionOf(db),
    applyImport: async (file) => applyImport(db, file),
    listFacilities: async () => listFacilities(db),
    createKey: async (opts) => createKey(db, opts),
    listKeys: async (facilityId) => listKeys(db, facilityId),
    revokeKey: async (id) => revokeKey(db, id),
    updateKey: async (id, changes) => updateKey(db, id, changes),
    recordLastUse: async (uses) => recordLastUse(db, uses),
    close: async () => void db.close(),
  };
}

function pgStore(pool: Pool, location: string): Store {
  // A driver error becomes one line naming the server, the credentials or the database; ours pass as they are.
  const named =
    <A extends unknown[], T>(fn: (...args: A) => Promise<T>) =>
    (...args: A): Promise<T> =>
      fn(...args).catch((err: unknown) => Promise.reject(pgFailure(err, location)));
  return {
    location: describeLocation(location),
    schemaVersion: named(() => pgSchemaVersion(pool)),
    applyImport: named((file) => importPg(pool, file)),
    listFacilities: named(() => listFacilitiesPg(pool)),
    createKey: named((opts) => createKeyPg(pool, opts)),
    listKeys: named((facilityId) => listKeysPg(pool, facilityId)),
    revokeKey: named((id) => revokeKeyPg(pool, id)),
    updateKey: named((id, changes) => updateKeyPg(pool, id, changes)),
    recordLastUse: named((uses) => recordLastUsePg(pool, uses)),
    close: () => pool.end(),
  };
}
