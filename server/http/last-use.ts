// Coalesces last-use times in memory and writes them in one transaction every interval and at shutdown.
import type { Db } from '../store/db.ts';
import { recordLastUse } from '../store/keys.ts';

export class LastUse {
  /** Key id -> epoch milliseconds: a number per request, not a Date object. */
  private pending = new Map<string, number>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly db: Db,
    intervalMs = 30_000,
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
    const busyTimeout = waitForLock ? undefined : this.db.pragma('busy_timeout', { simple: true });
    if (!waitForLock) this.db.pragma('busy_timeout = 0');
    try {
      recordLastUse(this.db, new Map([...batch].map(([id, at]) => [id, new Date(at)])));
    } catch (err) {
      // Busy database: keep the times for the next flush rather than lose them.
      for (const [id, at] of batch) if (!this.pending.has(id)) this.pending.set(id, at);
      if (waitForLock || !String((err as { code?: unknown }).code).startsWith('SQLITE_BUSY')) throw err;
    } finally {
      if (!waitForLock) this.db.pragma(`busy_timeout = ${busyTimeout}`);
    }
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
    this.flush();
  }
}
