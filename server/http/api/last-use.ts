// Coalesces last-use times in memory and writes them in one transaction every interval and at shutdown.
import type { Db } from '../../store/db.ts';
import { recordLastUse } from '../../store/keys.ts';
import type { Logger } from '../../logger.ts';

/** How often last-use times reach the database: `keys list` shows a use within this (the contract allows 60 s). */
export const LAST_USE_INTERVAL_MS = 30_000;

/**
 * One key's last use, kept on the key's profile: a request writes a number, not a Map entry. Several slots may name the
 * same key (a data change makes a new one): the latest use wins.
 */
export interface UseSlot {
  readonly keyId: string;
  /** performance.now() of the last use. */
  at: number;
  queued: boolean;
}

export function useSlotOf(keyId: string): UseSlot {
  return { keyId, at: 0, queued: false };
}

export class LastUse {
  /** Slots used since the last flush. */
  private queue: UseSlot[] = [];
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly db: Db,
    intervalMs = LAST_USE_INTERVAL_MS,
    /** Takes the times instead of db (PostgreSQL); it keeps and retries what it cannot write yet. */
    private readonly sink?: (uses: ReadonlyMap<string, Date>) => void,
    /** Where a write that failed for another reason than a busy database is said (a full disk). */
    private readonly logger?: Logger,
  ) {
    // The timer never waits for another process's write lock: this thread serves every request, and a lock held by an
    // import would stall them all (and, past busy_timeout, throw out of the timer and stop the server).
    this.timer = setInterval(() => this.flush({ waitForLock: false }), intervalMs);
    this.timer.unref();
  }

  /** `at` is a performance.now() reading: the API reads the clock once per request, for this and the rate limit. */
  touch(slot: UseSlot, at: number): void {
    slot.at = at;
    if (!slot.queued) {
      slot.queued = true;
      this.queue.push(slot);
    }
  }

  /** Writes the pending times; never throws: what the database does not take stays pending for the next flush. */
  flush({ waitForLock = true } = {}): void {
    if (this.queue.length === 0) return;
    const slots = this.queue;
    this.queue = [];
    const latest = new Map<string, number>();
    for (const s of slots) {
      s.queued = false;
      latest.set(s.keyId, Math.max(s.at, latest.get(s.keyId) ?? -Infinity));
    }
    const origin = performance.timeOrigin;
    const uses = new Map([...latest].map(([id, at]) => [id, new Date(origin + at)]));
    if (this.sink) return this.sink(uses);
    try {
      recordLastUse(this.db, uses, { waitForLock });
    } catch (err) {
      // Kept for the next flush rather than lost (a slot used meanwhile is queued already): the database may take them
      // then. A busy database is routine and says nothing; any other failure (a full disk) is logged, never thrown out
      // of the timer, which would stop the server.
      for (const s of slots) if (!s.queued) this.touch(s, s.at);
      const code = String((err as { code?: unknown }).code);
      if (waitForLock || !code.startsWith('SQLITE_BUSY'))
        this.logger?.error(
          { last_use_keys: uses.size, code },
          `could not write the last use of ${uses.size} keys (${(err as Error).message})${this.timer ? '; kept for the next write' : ': lost, the server is stopping'}`,
        );
    }
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
    this.flush();
  }
}
