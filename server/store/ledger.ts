// What a publish reads and records, on either backend: facilities from a SQLite database (a file, or a node's mirror of
// PostgreSQL), and the snapshot tables (versions, what each target holds) in the store itself.
import { changeCounter } from './changes.ts';
import type { Db } from './db.ts';
import { kidsNeededOn, publishedOn, recordPublished, type Published } from './published.ts';
import { recordWritten, reserveVersions, type Reserved, type Written } from './snapshot-versions.ts';

export interface SnapshotLedger {
  /** Facilities, listings and photos as of the last refresh. */
  readonly db: Db;
  /** Brings db up to date; resolves to a counter that moves whenever anything was committed since. */
  refresh(): Promise<number>;
  publishedOn(target: string): Promise<Map<string, Published>>;
  /** Many facilities in one transaction; a row never goes back to a lower version. */
  recordPublished(target: string, published: readonly Published[]): Promise<void>;
  kidsNeededOn(target: string): Promise<Map<string, string>>;
  /** The next version of each facility on the target, at least its floor, in one transaction: never reused there. */
  reserveVersions(
    target: string,
    ids: readonly string[],
    floors?: ReadonlyMap<string, number>,
  ): Promise<Map<string, Reserved>>;
  recordWritten(target: string, written: readonly Written[]): Promise<void>;
}

/** The ledger of a SQLite file: everything in the file itself, read as it is. */
export function sqliteLedger(db: Db): SnapshotLedger {
  const changes = changeCounter(db);
  return {
    db,
    refresh: async () => changes(),
    publishedOn: async (target) => publishedOn(db, target),
    recordPublished: async (target, published) => recordPublished(db, target, published),
    kidsNeededOn: async (target) => kidsNeededOn(db, target),
    reserveVersions: async (target, ids, floors) => reserveVersions(db, target, ids, floors),
    recordWritten: async (target, written) => recordWritten(db, target, written),
  };
}

/** Callers that hold a SQLite file pass it as it is. */
export const ledgerOf = (source: Db | SnapshotLedger): SnapshotLedger =>
  'reserveVersions' in source ? source : sqliteLedger(source);
