// Shared options every command understands (--db, --key-prefix) and the database they open.
import type { Command } from 'commander';
import { defaultDbPath } from '../server/config.ts';
import { openDb, type Db } from '../server/store/db.ts';
import type { Io } from './io.ts';

export interface GlobalOptions {
  db?: string;
  keyPrefix?: string;
}

export function globalsOf(cmd: Command): GlobalOptions {
  return cmd.optsWithGlobals() as GlobalOptions;
}

export function dbPathOf(cmd: Command, io: Io): string {
  return globalsOf(cmd).db ?? defaultDbPath(io.env);
}

/** Opens the database for one command and always closes it, even when the action throws. */
export async function withDb<T>(cmd: Command, io: Io, action: (db: Db) => T | Promise<T>): Promise<T> {
  const db = openDb(dbPathOf(cmd, io));
  try {
    return await action(db);
  } finally {
    db.close();
  }
}
