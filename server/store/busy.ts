// A write that never holds the event loop while another process has the SQLite file's write lock: it asks once, and on
// SQLITE_BUSY waits off the loop and asks again. The serving process's background writers (webhook deliveries) use it,
// so an operator's import in another process delays their writes, never the answers.
import { setTimeout as delay } from 'node:timers/promises';
import type { Db } from './db.ts';

/** How long a write keeps asking before its SQLITE_BUSY is thrown (the caller retries at its next round). */
const GIVE_UP_MS = 30_000;
const RETRY_MS = 25;

/** Another connection (another process) held SQLite's write lock for longer than busy_timeout. */
export const isBusy = (err: unknown) => String((err as { code?: unknown }).code).startsWith('SQLITE_BUSY');

/** What the CLI and the panel say then: the file is in use, not broken, and trying later works. */
export const busyMessage = (database: string) =>
  `${database} is locked by another process that is writing to it (waited 5 s); try again when it has finished`;

export async function writeWhenFree<T>(db: Db, write: () => T): Promise<T> {
  const until = Date.now() + GIVE_UP_MS;
  for (;;) {
    const busyTimeout = db.pragma('busy_timeout', { simple: true }) as number;
    db.pragma('busy_timeout = 0');
    try {
      return write();
    } catch (err) {
      if (!isBusy(err) || Date.now() > until) throw err;
    } finally {
      db.pragma(`busy_timeout = ${busyTimeout}`);
    }
    await delay(RETRY_MS);
  }
}

/** A write worth doing only when the lock is free now (a session's last-seen time): false when it was skipped. */
export function writeNowOrSkip(db: Db, write: () => void): boolean {
  const busyTimeout = db.pragma('busy_timeout', { simple: true }) as number;
  db.pragma('busy_timeout = 0');
  try {
    write();
    return true;
  } catch (err) {
    if (isBusy(err)) return false;
    throw err;
  } finally {
    db.pragma(`busy_timeout = ${busyTimeout}`);
  }
}
