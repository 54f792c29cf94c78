// Shared options every command understands (--db, --key-prefix) and the database they open.
import type { Command } from 'commander';
import { ListingsError } from '../server/errors.ts';
import { openDb, type Db } from '../server/store/db.ts';
import { checkLocation, isPostgresUrl } from '../server/store/pg/location.ts';
import { openStore, type Store } from '../server/store/store.ts';
import { sqliteLedger, type SnapshotLedger } from '../server/snapshots/ledger.ts';
import { openPg, pgFailure } from '../server/store/pg/connect.ts';
import { Mirror } from '../server/store/pg/mirror.ts';
import { pgLedger } from '../server/store/pg/snapshot-ledger.ts';
import type { Settings } from './settings.ts';

export type GlobalOptions = Pick<Settings, 'db' | 'keyPrefix'>;

/** --db and --key-prefix, from the command line, the environment or their defaults. */
export function globalsOf(cmd: Command): GlobalOptions {
  return cmd.optsWithGlobals() as GlobalOptions;
}

export interface WithDbOptions {
  /** Create the file (and its folder) when missing: only `import` does; every other command refuses a missing file. */
  create?: boolean;
}

/** Opens the SQLite file for one command and always closes it, even when the action throws. */
export async function withDb<T>(
  cmd: Command,
  action: (db: Db) => T | Promise<T>,
  options: WithDbOptions = {},
): Promise<T> {
  const path = globalsOf(cmd).db;
  checkLocation(path);
  if (isPostgresUrl(path))
    throw new ListingsError('db_not_supported', `${cmd.name()} works on a SQLite file only, not on PostgreSQL`);
  // A mistyped --db must not leave an empty database behind that then looks like "no facilities, no keys".
  const db = openDb(path, { mustExist: !options.create });
  try {
    return await action(db);
  } catch (err) {
    throw busyFailure(err, path);
  } finally {
    db.close();
  }
}

/** Opens the store (a SQLite file or PostgreSQL) for one command and always closes it, even when the action throws. */
export async function withStore<T>(
  cmd: Command,
  action: (store: Store) => Promise<T>,
  options: WithDbOptions = {},
): Promise<T> {
  const path = globalsOf(cmd).db;
  const store = await openStore(path, { mustExist: !options.create });
  try {
    return await action(store);
  } catch (err) {
    throw busyFailure(err, path);
  } finally {
    await store.close();
  }
}

/** What snapshot commands read and record: a SQLite file, or PostgreSQL through a mirror of it in memory. */
export async function withLedger<T>(cmd: Command, action: (ledger: SnapshotLedger) => Promise<T>): Promise<T> {
  const path = globalsOf(cmd).db;
  checkLocation(path);
  if (!isPostgresUrl(path)) return withDb(cmd, (db) => action(sqliteLedger(db)));
  const pool = await openPg(path);
  const mirror = new Mirror(pool);
  try {
    return await action(pgLedger(pool, mirror, path));
  } catch (err) {
    throw pgFailure(err, path);
  } finally {
    mirror.close();
    await pool.end();
  }
}

/** Another process (an import, a revoke) held SQLite's write lock for longer than busy_timeout: say so, not "unexpected failure". */
function busyFailure(err: unknown, path: string): unknown {
  if (!String((err as { code?: unknown }).code).startsWith('SQLITE_BUSY')) return err;
  return new ListingsError(
    'db_busy',
    `database ${path} is locked by another process that is writing to it (waited 5 s); try again when it has finished`,
  );
}
