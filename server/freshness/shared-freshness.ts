// Freshness across nodes (PostgreSQL): before each batch one read of the change counter, the counterpart of PRAGMA data_version.
import type { Mirror } from '../store/pg/mirror.ts';
import type { Freshness } from './freshness.ts';

/** After a failed read, batches within this long are refused without another try: a dead database is not hammered. */
const RETRY_AFTER_FAILURE_MS = 250;

export class SharedFreshness {
  private running: Promise<void> | undefined;
  private queued: Promise<void> | undefined;
  private failedAt = -Infinity;

  constructor(
    private readonly mirror: Mirror,
    private readonly freshness: Freshness,
    private readonly onFailure: (err: unknown) => void = () => {},
  ) {}

  /**
   * Resolves once the mirror is as current as the database was at some moment after this call; never rejects. A read
   * already running may have begun before this batch's requests arrived, so the batch waits for the next one instead.
   */
  beforeBatch(): Promise<void> {
    if (!this.running) {
      this.running = this.refresh().finally(() => (this.running = undefined));
      return this.running;
    }
    this.queued ??= this.running.then(() => {
      this.queued = undefined;
      return this.beforeBatch();
    });
    return this.queued;
  }

  private async refresh(): Promise<void> {
    if (!this.freshness.fresh && performance.now() - this.failedAt < RETRY_AFTER_FAILURE_MS) return;
    try {
      const changed = await this.mirror.sync();
      if (changed) this.freshness.invalidate();
      if (!this.freshness.fresh) this.freshness.setUnavailable(false);
    } catch (err) {
      // Fail closed: until a read succeeds, keyed requests get 503 rather than answers that may hold a revoked key.
      if (this.freshness.fresh) this.onFailure(err);
      this.failedAt = performance.now();
      this.freshness.setUnavailable(true);
    }
  }
}
