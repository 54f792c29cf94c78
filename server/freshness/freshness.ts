// Notices writes by any other process (an import, a revoke) via PRAGMA data_version, so caches never serve stale data.
import { changeCounter } from '../store/changes.ts';
import type { Db } from '../store/db.ts';

/** What a refused request is told to wait, in seconds, while the database is unreachable. */
export const UNAVAILABLE_RETRY_AFTER_S = 5;

export class Freshness {
  private readonly dataVersion: () => number;
  private version: number;
  private readonly listeners: (() => void)[] = [];
  /** Inside batch(): the check has been made for every request of the batch. */
  private batched = false;
  /** False while this node cannot confirm its data is current (PostgreSQL unreachable). */
  private confirmed = true;

  constructor(db: Db) {
    this.dataVersion = changeCounter(db);
    this.version = this.dataVersion();
  }

  onChange(listener: () => void): void {
    this.listeners.push(listener);
  }

  /**
   * Calls listener after a change only when read() gives another text than it gave before: a commit that leaves what it
   * reads alone (a delivery's bookkeeping, a click count, another node's last use) costs one read, not a rebuild.
   */
  onChangeOf(read: () => string, listener: () => void): void {
    let seen = read();
    this.onChange(() => {
      const now = read();
      if (now === seen) return;
      seen = now;
      listener();
    });
  }

  /**
   * Called once per request: one cheap pragma; on a change every cache is dropped before anything is served. False when
   * the data cannot be confirmed: the caller refuses the request (the API with a 503, the pages with a page).
   */
  check(): boolean {
    if (!this.confirmed) return false;
    if (this.batched) return true;
    const now = this.dataVersion();
    if (now !== this.version) {
      this.version = now;
      this.invalidate();
    }
    return true;
  }

  /**
   * Runs fn for a batch of requests after one check. Sound only when every request of the batch was read off its socket
   * before this call: a commit that ended before a client sent its request then ended before the check too.
   */
  batch(fn: () => void): void {
    // Unconfirmed data: no batch-wide check, so that each request's own check refuses it.
    if (!this.confirmed) return fn();
    this.check();
    this.batched = true;
    try {
      fn();
    } finally {
      this.batched = false;
    }
  }

  /** Whether answers may be served: false while the database that confirms them is unreachable. */
  get fresh(): boolean {
    return this.confirmed;
  }

  /** Marks the data as unconfirmed (every check false) until called again with false. */
  setUnavailable(unavailable: boolean): void {
    this.confirmed = !unavailable;
  }

  /** For writes made through this process's own connection, which data_version does not report. */
  invalidate(): void {
    for (const l of this.listeners) l();
  }
}
