// What a serving node writes to PostgreSQL in the background (last use, click counts): batches merged in memory,
// written one at a time, and kept for the next write when one fails (the database may be back by then).
export class PendingWrites<B, I = B> {
  private pending: B;
  private writing: Promise<void> | undefined;

  constructor(
    private readonly empty: () => B,
    /** Adds `from` into `into`, as two batches of the same rows add up. */
    private readonly merge: (into: B, from: I | B) => void,
    private readonly write: (batch: B) => Promise<void>,
    private readonly size: (batch: B) => number,
  ) {
    this.pending = empty();
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
      .catch(() => this.merge(this.pending, batch))
      .finally(() => (this.writing = undefined));
    await this.writing;
  }
}
