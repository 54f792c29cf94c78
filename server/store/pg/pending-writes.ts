// What a serving node writes to PostgreSQL in the background (last use, click counts): batches merged in memory,
// written one at a time, kept when a write fails, and retried on a timer (the database may be back by then).

/** How often held writes are retried with nothing new: written within this once the database is back. */
export const RETRY_MS = 30_000;

export interface PendingWritesOptions {
  retryMs?: number;
  /** Told how many rows a failed write kept (a log line). */
  failed?: (rows: number, err: unknown) => void;
}

export class PendingWrites<B, I = B> {
  private pending: B;
  private writing: Promise<void> | undefined;
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly empty: () => B,
    /** Adds `from` into `into`, as two batches of the same rows add up. */
    private readonly merge: (into: B, from: I | B) => void,
    private readonly write: (batch: B) => Promise<void>,
    private readonly size: (batch: B) => number,
    private readonly options: PendingWritesOptions = {},
  ) {
    this.pending = empty();
    // New uses or clicks start a write too; without them, what an outage held would wait for the next one.
    this.timer = setInterval(() => {
      if (!this.writing && this.size(this.pending) > 0) void this.flush();
    }, options.retryMs ?? RETRY_MS);
    this.timer.unref();
  }

  /** Takes a batch and starts writing what is pending. */
  readonly add = (batch: I): void => {
    this.merge(this.pending, batch);
    void this.flush();
  };

  /** How many rows wait for a write that has not succeeded yet (none once a flush went through). */
  pendingRows(): number {
    return this.size(this.pending);
  }

  async flush(): Promise<void> {
    while (this.writing) await this.writing;
    if (this.size(this.pending) === 0) return;
    const batch = this.pending;
    this.pending = this.empty();
    this.writing = this.write(batch)
      .catch((err: unknown) => {
        this.merge(this.pending, batch);
        this.options.failed?.(this.size(batch), err);
      })
      .finally(() => (this.writing = undefined));
    await this.writing;
  }

  /** Retries no more; what is pending stays for a last flush. */
  stop(): void {
    clearInterval(this.timer);
  }
}
