// Last use from a serving node to PostgreSQL: times coalesced in memory, written in one statement, kept and retried on failure.
import type { Pool } from './connect.ts';
import { recordLastUsePg } from './keys.ts';

export class PendingLastUse {
  private pending = new Map<string, Date>();
  private writing: Promise<void> | undefined;

  constructor(private readonly pool: Pool) {}

  /** Takes a flush's times (the API's LastUse calls this every interval) and starts writing them. */
  readonly add = (uses: ReadonlyMap<string, Date>): void => {
    this.merge(uses);
    void this.flush();
  };

  /** Writes what is pending; on failure keeps it for the next flush (the database may be back by then). */
  async flush(): Promise<void> {
    while (this.writing) await this.writing;
    if (this.pending.size === 0) return;
    const batch = this.pending;
    this.pending = new Map();
    this.writing = recordLastUsePg(this.pool, batch)
      .catch(() => this.merge(batch))
      .finally(() => (this.writing = undefined));
    await this.writing;
  }

  private merge(uses: ReadonlyMap<string, Date>): void {
    for (const [id, at] of uses) {
      const had = this.pending.get(id);
      if (!had || had < at) this.pending.set(id, at);
    }
  }
}
