// A counter that moves whenever another connection (any process) commits to the database file.
import type { Db } from './db.ts';

/** PRAGMA data_version: cheap to read, changes on another connection's commit, never on this connection's own. */
export function changeCounter(db: Db): () => number {
  const stmt = db.prepare('PRAGMA data_version').pluck();
  return () => stmt.get() as number;
}
