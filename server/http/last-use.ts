// Coalesces last-use times in memory and writes them in one transaction every interval and at shutdown.
import type { Db } from '../store/db.ts';
import { recordLastUse } from '../store/keys.ts';

export class LastUse {
  private pending = new Map<string, Date>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly db: Db,
    intervalMs = 30_000,
  ) {
    this.timer = setInterval(() => this.flush(), intervalMs);
    this.timer.unref();
  }

  touch(keyId: string, at = new Date()): void {
    this.pending.set(keyId, at);
  }

  flush(): void {
    if (this.pending.size === 0) return;
    const batch = this.pending;
    this.pending = new Map();
    try {
      recordLastUse(this.db, batch);
    } catch (err) {
      // Busy database: keep the times for the next flush rather than lose them.
      for (const [id, at] of batch) if (!this.pending.has(id)) this.pending.set(id, at);
      throw err;
    }
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
    this.flush();
  }
}
