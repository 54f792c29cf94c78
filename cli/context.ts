// Shared options every command understands (--db, --key-prefix) and the database they open.
import type { Command } from 'commander';
import { ListingsError } from '../server/errors.ts';
import { openDb, type Db } from '../server/store/db.ts';
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

/** Opens the database for one command and always closes it, even when the action throws. */
export async function withDb<T>(
  cmd: Command,
  action: (db: Db) => T | Promise<T>,
  options: WithDbOptions = {},
): Promise<T> {
  const path = globalsOf(cmd).db;
  // A mistyped --db must not leave an empty database behind that then looks like "no facilities, no keys".
  const db = openDb(path, { mustExist: !options.create });
  try {
    return await action(db);
  } catch (err) {
    // Another process (an import, a revoke) held the write lock for longer than busy_timeout: say so, not "unexpected failure".
    if (String((err as { code?: unknown }).code).startsWith('SQLITE_BUSY')) {
      throw new ListingsError(
        'db_busy',
        `database ${path} is locked by another process that is writing to it (waited 5 s); try again when it has finished`,
      );
    }
    throw err;
  } finally {
    db.close();
  }
}
