// Coalesces last-use times in memory and writes them in one transaction every interval and at shutdown.
import type { Db } from '../../store/db.ts';
import { recordLastUse } from '../../store/keys.ts';

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

  /** Writes the pending times; without waitForLock, a busy database leaves them pending for the next flush instead of throwing. */
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
      // Busy database: keep the times for the next flush rather than lose them (a slot used meanwhile is queued already).
      for (const s of slots) if (!s.queued) this.touch(s, s.at);
      if (waitForLock || !String((err as { code?: unknown }).code).startsWith('SQLITE_BUSY')) throw err;
    }
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
    this.flush();
  }
}
