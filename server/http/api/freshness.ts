// Notices writes by any other process (an import, a revoke) via PRAGMA data_version, so caches never serve stale data.
import { changeCounter } from '../../store/changes.ts';
import type { Db } from '../../store/db.ts';

export class Freshness {
  private readonly dataVersion: () => number;
  private version: number;
  private readonly listeners: (() => void)[] = [];
  /** Inside batch(): the check has been made for every request of the batch. */
  private batched = false;

  constructor(db: Db) {
    this.dataVersion = changeCounter(db);
    this.version = this.dataVersion();
  }

  onChange(listener: () => void): void {
    this.listeners.push(listener);
  }

  /** Called once per request: one cheap pragma; on a change every cache is dropped before anything is served. */
  check(): void {
    if (this.batched) return;
    const now = this.dataVersion();
    if (now !== this.version) {
      this.version = now;
      this.invalidate();
    }
  }

  /**
   * Runs fn for a batch of requests after one check. Sound only when every request of the batch was read off its socket
   * before this call: a commit that ended before a client sent its request then ended before the check too.
   */
  batch(fn: () => void): void {
    this.check();
    this.batched = true;
    try {
      fn();
    } finally {
      this.batched = false;
    }
  }

  /** For writes made through this process's own connection, which data_version does not report. */
  invalidate(): void {
    for (const l of this.listeners) l();
  }
}
