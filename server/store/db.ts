// Opens the one SQLite file (WAL, busy timeout) and brings its schema up to date in a transaction.
import Database from 'better-sqlite3';
import { existsSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { ListingsError } from '../errors.ts';
import { diskFailure } from './disk-failure.ts';
import { MIGRATIONS, runMigration, SCHEMA_VERSION } from './migrations.ts';
import { pendingMigrations } from './schema.ts';

export type Db = Database.Database;

export interface OpenOptions {
  /** Apply pending migrations (default true). When false, an outdated file is an error. */
  migrate?: boolean;
  readonly?: boolean;
  /** Refuse a file that does not exist instead of creating it (and its folder); `:memory:` is not a file and always opens. */
  mustExist?: boolean;
  busyTimeoutMs?: number;
}

export function openDb(file: string, options: OpenOptions = {}): Db {
  const mustExist = file !== ':memory:' && (options.mustExist ?? false);
  if (mustExist && !existsSync(file))
    throw new ListingsError('db_missing', `no database at ${file}: run listings import first`);
  if (file !== ':memory:' && !options.readonly && !mustExist) {
    try {
      makeParents(dirname(file));
    } catch (err) {
      throw new ListingsError(
        'db_unreadable',
        `cannot create the folder for database ${file}: ${(err as Error).message}`,
      );
    }
  }
  let db: Db;
  try {
    db = new Database(file, {
      readonly: options.readonly ?? false,
      fileMustExist: (options.readonly ?? false) || mustExist,
    });
    db.pragma(`busy_timeout = ${options.busyTimeoutMs ?? 5000}`);
    if (!options.readonly) db.pragma('journal_mode = WAL');
    db.pragma('foreign_keys = ON');
    db.pragma('synchronous = NORMAL');
  } catch (err) {
    throw (
      diskFailure(err, file) ??
      new ListingsError('db_unreadable', `cannot open database ${file}: ${(err as Error).message}`)
    );
  }
  try {
    migrate(db, options.migrate ?? true);
  } catch (err) {
    db.close();
    throw diskFailure(err, file) ?? err;
  }
  return db;
}

export function schemaVersionOf(db: Db): number {
  return db.pragma('user_version', { simple: true }) as number;
}

function migrate(db: Db, apply: boolean): void {
  if (pendingMigrations(MIGRATIONS, schemaVersionOf(db), apply).length === 0) return;
  // IMMEDIATE: two processes starting at once must not both migrate.
  db.transaction(() => {
    for (const m of pendingMigrations(MIGRATIONS, schemaVersionOf(db), apply)) runMigration(db, m);
    db.pragma(`user_version = ${SCHEMA_VERSION}`);
  }).immediate();
}

/** mkdir -p, one level at a time: Node's recursive mkdir never returns on some paths (under /proc, for one). */
function makeParents(dir: string): void {
  if (existsSync(dir)) return;
  const parent = dirname(dir);
  if (parent !== dir) makeParents(parent);
  mkdirSync(dir);
}
