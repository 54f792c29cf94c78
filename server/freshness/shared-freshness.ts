// Freshness across nodes (PostgreSQL): reads of the change counter, the counterpart of PRAGMA data_version, each
// covering every batch that arrived before it began.
import type { Mirror } from '../store/pg/mirror.ts';
import type { Freshness } from './freshness.ts';

/** After a failed read, batches within this long are refused without another try: a dead database is not hammered. */
const RETRY_AFTER_FAILURE_MS = 250;
/** Under load a read waits for this many requests, so its round trip is shared rather than paid every few requests. */
export const REQUESTS_PER_READ = 32;
/** ...or for this long since the last read began, whichever comes first; an idle node reads at once. */
export const MAX_WAIT_MS = 1;

interface Waiting {
  done: Promise<void>;
  resolve: () => void;
  requests: number;
}

export class SharedFreshness {
  private running = false;
  /** Batches that arrived after the running read began: the next read is theirs. */
  private waiting: Waiting | undefined;
  private lastStart = -Infinity;
  private timer: NodeJS.Timeout | undefined;
  private failedAt = -Infinity;
  /** When the first failed read of the running outage began: its length is told on recovery. */
  private downSince = 0;
  /** Reads begun, for tests and the bench. */
  reads = 0;

  constructor(
    private readonly mirror: Mirror,
    private readonly freshness: Freshness,
    private readonly onFailure: (err: unknown) => void = () => {},
    /** Told once when a read succeeds after failed ones, with how long reads failed. */
    private readonly onRecovery: (outageMs: number) => void = () => {},
  ) {}

  /**
   * Resolves once the mirror is as current as the database was at some moment after this call; never rejects. A read
   * already running may have begun before these requests arrived, so they wait for the next one.
   */
  beforeBatch(requests = 1): Promise<void> {
    if (!this.waiting) {
      let resolve!: () => void;
      const done = new Promise<void>((r) => (resolve = r));
      this.waiting = { done, resolve, requests: 0 };
    }
    this.waiting.requests += requests;
    const { done } = this.waiting;
    this.startIfDue(false);
    return done;
  }

  /** A NOTIFY: read now (when no read is running), so caches drop before the next request rather than on it. */
  wake(): void {
    void this.beforeBatch(REQUESTS_PER_READ);
  }

  private startIfDue(timedOut: boolean): void {
    const batch = this.waiting;
    if (this.running || !batch) return;
    const since = performance.now() - this.lastStart;
    if (!timedOut && batch.requests < REQUESTS_PER_READ && since < MAX_WAIT_MS) {
      this.timer ??= setTimeout(() => {
        this.timer = undefined;
        this.startIfDue(true);
      }, MAX_WAIT_MS - since);
      return;
    }
    clearTimeout(this.timer);
    this.timer = undefined;
    this.waiting = undefined;
    this.running = true;
    this.lastStart = performance.now();
    this.reads++;
    void this.refresh().finally(() => {
      this.running = false;
      batch.resolve();
      this.startIfDue(false);
    });
  }

  private async refresh(): Promise<void> {
    if (!this.freshness.fresh && performance.now() - this.failedAt < RETRY_AFTER_FAILURE_MS) return;
    const started = performance.now();
    try {
      const changed = await this.mirror.sync();
      if (changed) this.freshness.invalidate();
      if (!this.freshness.fresh) {
        this.freshness.setUnavailable(false);
        this.onRecovery(performance.now() - this.downSince);
      }
    } catch (err) {
      // Fail closed: until a read succeeds, keyed requests get 503 rather than answers that may hold a revoked key.
      if (this.freshness.fresh) {
        this.downSince = started;
        this.onFailure(err);
      }
      this.failedAt = performance.now();
      this.freshness.setUnavailable(true);
    }
  }
}
