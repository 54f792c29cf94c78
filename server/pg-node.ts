// A serving node on PostgreSQL: the in-memory mirror it answers from, a freshness read before each batch, last use
// written to the shared database, and LISTEN to drop caches early.
import type { Freshness } from './freshness/freshness.ts';
import { SharedFreshness } from './freshness/shared-freshness.ts';
import type { Db } from './store/db.ts';
import type { Logger } from './logger.ts';
import { openPg, pgFailure } from './store/pg/connect.ts';
import { PendingLastUse } from './store/pg/last-use.ts';
import { PendingClicks } from './store/pg/referrals.ts';
import type { ClickDelta } from './store/referrals.ts';
import { listenForChanges } from './store/pg/listen.ts';
import { Mirror } from './store/pg/mirror.ts';

export interface PgNode {
  /** The mirror: the handler reads it as it reads a SQLite file. */
  db: Db;
  recordLastUse: (uses: ReadonlyMap<string, Date>) => void;
  /** Takes counted clicks and adds them to the shared rows. */
  recordClicks: (deltas: readonly ClickDelta[]) => void;
  /**
   * The hook the handler awaits before each batch: it reads the change counter into `freshness` (woken early by
   * NOTIFY, which it starts listening for).
   */
  beforeBatch(freshness: Freshness, logger: Logger): (requests: number) => Promise<void>;
  /**
   * Stops listening, writes the last use and click counts still pending, closes the pool. What PostgreSQL does not take
   * then (an outage at shutdown) is lost, and `logger` says how much.
   */
  close(logger?: Logger): Promise<void>;
}

/** Query limit for a serving node: a database that stopped answering turns into 503s within this, not hung requests. */
const QUERY_TIMEOUT_MS = 5_000;

export interface PgNodeOptions {
  /** Says when a background write (last use, clicks) fails and is held for a retry. */
  logger?: Logger;
  /** How often held writes are retried when nothing new comes (RETRY_MS). */
  retryMs?: number;
}

export async function startPgNode(location: string, options: PgNodeOptions = {}): Promise<PgNode> {
  // Migrates on start, as serve does for a file; a newer schema or a bad URL is refused here with one line.
  const pool = await openPg(location, { max: 4, queryTimeoutMs: QUERY_TIMEOUT_MS });
  const mirror = new Mirror(pool);
  try {
    await mirror.sync();
  } catch (err) {
    mirror.close();
    await pool.end();
    throw pgFailure(err, location);
  }
  const { logger, retryMs } = options;
  const held = (field: string, what: string) => (rows: number, err: unknown) =>
    logger?.warn(
      { [field]: rows },
      `PostgreSQL did not take ${rows} ${what} (${pgFailure(err, location).message}); kept and retried`,
    );
  const lastUse = new PendingLastUse(pool, { retryMs, failed: held('last_use_keys', "keys' last use") });
  const clicks = new PendingClicks(pool, { retryMs, failed: held('click_count_rows', 'click counts') });
  let listener: { close(): Promise<void> } | undefined;
  return {
    db: mirror.db,
    recordLastUse: lastUse.add,
    recordClicks: clicks.addDeltas,
    beforeBatch(freshness, logger) {
      const failed = (err: unknown) =>
        logger.error(`refusing keyed requests and rental pages: ${pgFailure(err, location).message}`);
      // One line when reads succeed again, with how long they failed (from the first failed read's start).
      const recovered = (outageMs: number) =>
        logger.warn(
          { outage_ms: Math.round(outageMs) },
          `serving again: PostgreSQL answered after an outage of ${(outageMs / 1000).toFixed(1)} s`,
        );
      const shared = new SharedFreshness(mirror, freshness, failed, recovered);
      listener = listenForChanges(location, () => shared.wake());
      return (requests) => shared.beforeBatch(requests);
    },
    async close(logger) {
      await listener?.close();
      lastUse.stop();
      clicks.stop();
      await lastUse.flush();
      await clicks.flush();
      const [uses, counts] = [lastUse.pendingRows(), clicks.pendingRows()];
      if (uses + counts > 0)
        logger?.error(
          { last_use_keys: uses, click_count_rows: counts },
          `stopping with writes PostgreSQL did not take: the last use of ${uses} keys and ${counts} click counts are lost`,
        );
      await pool.end();
      mirror.close();
    },
  };
}
