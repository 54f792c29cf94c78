// Coalesces last-use times in memory and writes them in one transaction every interval and at shutdown.
import type { Db } from '../../store/db.ts';
import { recordLastUse } from '../../store/keys.ts';

/** How often last-use times reach the database: `keys list` shows a use within this (the contract allows 60 s). */
export const LAST_USE_INTERVAL_MS = 30_000;

export class LastUse {
  /** Key id -> epoch milliseconds: a number per request, not a Date object. */
  private pending = new Map<string, number>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly db: Db,
    intervalMs = LAST_USE_INTERVAL_MS,
  ) {
    // The timer never waits for another process's write lock: this thread serves every request, and a lock held by an
    // import would stall them all (and, past busy_timeout, throw out of the timer and stop the server).
    this.timer = setInterval(() => this.flush({ waitForLock: false }), intervalMs);
    this.timer.unref();
  }

  touch(keyId: string, at = Date.now()): void {
    this.pending.set(keyId, at);
  }

  /** Writes the pending times; without waitForLock, a busy database leaves them pending for the next flush instead of throwing. */
  flush({ waitForLock = true } = {}): void {
    if (this.pending.size === 0) return;
    const batch = this.pending;
    this.pending = new Map();
    try {
      recordLastUse(this.db, new Map([...batch].map(([id, at]) => [id, new Date(at)])), { waitForLock });
    } catch (err) {
      // Busy database: keep the times for the next flush rather than lose them.
      for (const [id, at] of batch) if (!this.pending.has(id)) this.pending.set(id, at);
      if (waitForLock || !String((err as { code?: unknown }).code).startsWith('SQLITE_BUSY')) throw err;
    }
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
    this.flush();
  }
}
