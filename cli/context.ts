// Shared options every command understands (--db, --key-prefix) and the database they open.
import type { Command } from 'commander';
import { ListingsError } from '../server/errors.ts';
import { CLI_ACTOR, type PublishAudit } from '../server/store/audit.ts';
import { busyMessage, isBusy } from '../server/store/busy.ts';
import { diskFailure } from '../server/store/disk-failure.ts';
import { openStore, type Store } from '../server/store/store.ts';
import type { SnapshotLedger } from '../server/store/ledger.ts';
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
    throw storeFailure(err, path);
  } finally {
    await store.close();
  }
}

/** What snapshot commands read and record (a SQLite file, or PostgreSQL through a mirror of it), and where they audit. */
export async function withLedger<T>(
  cmd: Command,
  action: (ledger: SnapshotLedger, audit: PublishAudit) => Promise<T>,
): Promise<T> {
  return withStore(cmd, (store) => action(store.snapshotLedger(), { actor: CLI_ACTOR, to: store }));
}

/**
 * A failure of the file, said as what it is rather than "unexpected failure": another process (an import, a revoke)
 * held SQLite's write lock for longer than busy_timeout, the disk is full, or the file cannot be written.
 */
function storeFailure(err: unknown, path: string): unknown {
  if (isBusy(err)) return new ListingsError('db_busy', busyMessage(`database ${path}`));
  return diskFailure(err, path) ?? err;
}
