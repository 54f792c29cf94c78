// `snapshot publish --watch`: publish what changed within moments of any commit or promotion boundary, re-sign before
// expiry, retry with backoff.
import { ListingsError } from '../../errors.ts';
import type { Db } from '../../store/db.ts';
import { ledgerOf, type SnapshotLedger } from '../../store/ledger.ts';
import { promotionInstants } from '../../store/facilities.ts';
import { forgetFeedOf } from './feed.ts';
import { nextChangeAfter, resignAt } from './fresh.ts';
import { WITHDRAWN } from './pointer.ts';
import { publishSnapshots, type PublishOptions, type PublishSummary } from './publish.ts';

export interface WatchOptions extends Omit<PublishOptions, 'locked' | 'signal' | 'now' | 'force'> {
  /** Aborting it stops the watch: the facilities in flight finish, the lock is released, the promise resolves. */
  signal: AbortSignal;
  /** How often to look for a commit (a PRAGMA read, about a microsecond; one query on PostgreSQL). */
  pollMs?: number;
  /** After a failure: wait this long, doubling up to maxBackoffMs, then try again. */
  firstBackoffMs?: number;
  maxBackoffMs?: number;
  /** Every publish that uploaded something, and the first one even if it did not. */
  onPublish(summary: PublishSummary): void;
  onRetry(error: Error, retryInMs: number): void;
  /** The target is locked by another publisher; this one waits as a standby. */
  onWaiting(message: string): void;
}

export async function watchAndPublish(source: Db | SnapshotLedger, opts: WatchOptions): Promise<void> {
  const { signal } = opts;
  const ledger = ledgerOf(source);
  const pollMs = opts.pollMs ?? 250;
  // A lock lost (its lease ran out while renewing it failed) is taken again, as a standby if another holds it now.
  while (!signal.aborted) {
    const unlock = await lockAsStandby(opts);
    if (!unlock) return;
    forgetFeedOf(opts.target);
    try {
      if ((await publishWhileLocked(ledger, opts, pollMs)) === 'done') return;
    } finally {
      await unlock();
    }
  }
}

/** Publishes at each change, and when a facility is due, until the watch stops ('done') or the lock is lost. */
async function publishWhileLocked(
  ledger: SnapshotLedger,
  opts: WatchOptions,
  pollMs: number,
): Promise<'done' | 'lock_lost'> {
  const { signal } = opts;
  // A database that cannot be read (PostgreSQL restarting) reads as a change: the publish that follows fails, says what
  // failed in one line and retries with backoff, until the database is back.
  const changes = () => ledger.refresh().catch(() => undefined);
  let seen: number | undefined;
  let backoff = opts.firstBackoffMs ?? 1000;
  let first = true;
  let failing = false;
  while (!signal.aborted) {
    seen = await changes(); // before the publish: a commit during it triggers the next one
    let nextDue: number;
    try {
      const summary = await publishSnapshots(ledger, { ...opts, locked: true, signal });
      // After failures, even a publish with nothing to upload is printed: it says the watch has recovered.
      if (first || failing || summary.objects > 0) opts.onPublish(summary);
      first = false;
      failing = false;
      backoff = opts.firstBackoffMs ?? 1000;
      // Never sooner than a second away: a record of a facility this watch does not publish must not spin it.
      nextDue = Math.max(await nextDueAt(ledger, opts.target.recordKey, opts.facilityIds), Date.now() + 1000);
    } catch (err) {
      if (!(err instanceof ListingsError)) throw err;
      if (err.code === 'lock_lost') {
        opts.onRetry(err, 0);
        return 'lock_lost';
      }
      failing = true;
      opts.onRetry(err, backoff);
      await sleep(backoff, signal);
      backoff = Math.min(backoff * 2, opts.maxBackoffMs ?? 60_000);
      continue; // nothing failed was recorded, so the next publish picks every change up again
    }
    while (!signal.aborted && (await changes()) === seen && Date.now() < nextDue) await sleep(pollMs, signal);
  }
  return 'done';
}

/**
 * When the first facility on the target is due again: past half its TTL (to be signed again, a withdrawn one's
 * tombstone too), or at the next start or end of one of its promotions after its file was made (the file's schedule,
 * move-in and promotions change then).
 */
async function nextDueAt(ledger: SnapshotLedger, target: string, only: readonly string[] | undefined) {
  const instants = promotionInstants(ledger.db);
  let due = Number.POSITIVE_INFINITY;
  for (const p of (await ledger.publishedOn(target)).values()) {
    if (only && only.length > 0 && !only.includes(p.facilityId)) continue;
    if (p.contentDigest === WITHDRAWN && only && only.length > 0) continue; // such a watch renews no tombstone
    due = Math.min(
      due,
      resignAt(p.generatedAt, p.expiresAt),
      nextChangeAfter(instants.get(p.facilityId), p.generatedAt),
    );
  }
  return due;
}

/**
 * Another publisher holds the target: wait for it to stop (or its lease to lapse), checking every few seconds. A store
 * that cannot be reached yet (started after the publisher) is retried with backoff, one line per try.
 */
async function lockAsStandby(opts: WatchOptions): Promise<(() => Promise<void>) | undefined> {
  let told = false;
  let backoff = opts.firstBackoffMs ?? 1000;
  while (!opts.signal.aborted) {
    try {
      return await opts.target.lock({ watch: true });
    } catch (err) {
      if (!(err instanceof ListingsError)) throw err;
      if (/_locked$/.test(err.code)) {
        if (!told) opts.onWaiting(err.message);
        told = true;
        await sleep(2000 + Math.random() * 3000, opts.signal);
      } else {
        opts.onRetry(err, backoff);
        await sleep(backoff, opts.signal);
        backoff = Math.min(backoff * 2, opts.maxBackoffMs ?? 60_000);
      }
    }
  }
  return undefined;
}

/** Resolves after `ms`, or at once when `signal` aborts. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}
