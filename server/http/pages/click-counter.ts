// Clicks on partners' rent links, counted in memory and written in batches (as last use is): every interval and at
// shutdown. Unique visitors are kept as salted hashes of the day, in memory only; the salt changes with the UTC day.
import { randomBytes } from 'node:crypto';
import { addressGroupOf } from '../../domain/address-group.ts';
import { dayOf, visitorOf } from '../../domain/referral.ts';
import { mergeDeltas, type ClickDelta } from '../../store/referrals.ts';
import type { Logger } from '../../logger.ts';

/** How often counts reach the database; a SIGKILL loses at most this much. */
export const CLICK_INTERVAL_MS = 30_000;
const DAY_MS = 86_400_000;
/** Visitor hashes held for the day (about 100 bytes each); past it clicks still count, new visitors do not. */
export const MAX_VISITORS = 100_000;
/** A partner's (facility and ref) share of the day's visitors: one pumped ref cannot use up every other partner's. */
export const REF_SHARE = 0.1;
/**
 * New visitors a day from one address (an IPv6 /64) per listing and ref: a visitor is address and User-Agent, and a
 * client that changes its User-Agent is not a crowd; a household or an office behind one address still counts.
 */
export const MAX_VISITORS_PER_ADDRESS = 4;
/** Rows waiting for the next write; one more is written at once. Real rows only: a row needs a listing and a key's ref. */
export const MAX_PENDING_ROWS = 10_000;

/** Takes a batch; may throw (a busy database), and the batch is kept for the next write. */
export type ClickSink = (deltas: readonly ClickDelta[], opts: { waitForLock: boolean }) => void;

export class ClickCounter {
  private day = '';
  /** The UTC day's first and next day's first millisecond: the day's name is made once a day, not per click. */
  private dayFrom = 0;
  private dayTo = 0;
  private salt = randomBytes(16);
  /** Visitors seen today per facility, listing and ref. */
  private readonly seen = new Map<string, Set<string>>();
  /** Visitors counted today per facility and ref, and per facility, listing, ref and address. */
  private readonly perRef = new Map<string, number>();
  private readonly perAddress = new Map<string, number>();
  private visitors = 0;
  private pending = new Map<string, ClickDelta>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly sink: ClickSink,
    private readonly clock: () => number = Date.now,
    intervalMs = CLICK_INTERVAL_MS,
    private readonly maxVisitors = MAX_VISITORS,
    /** Where a write that failed for another reason than a busy database is said (a full disk). */
    private readonly logger?: Logger,
  ) {
    this.timer = setInterval(() => this.flush({ waitForLock: false }), intervalMs);
    this.timer.unref();
  }

  /** One counted click: the facility's listing, the partner's ref, and who clicked (never kept as such). */
  count(facilityId: string, code: string, ref: string, address: string, userAgent: string): void {
    const now = this.clock();
    if (now < this.dayFrom || now >= this.dayTo) this.newDay(now);
    const day = this.day;
    const key = `${facilityId}\0${code}\0${ref}`;
    let seen = this.seen.get(key);
    if (!seen) this.seen.set(key, (seen = new Set()));
    const visitor = visitorOf(this.salt, address, userAgent);
    const refKey = `${facilityId}\0${ref}`;
    const addressKey = `${key}\0${addressGroupOf(address)}`;
    const first =
      !seen.has(visitor) &&
      this.visitors < this.maxVisitors &&
      (this.perRef.get(refKey) ?? 0) < this.maxVisitors * REF_SHARE &&
      (this.perAddress.get(addressKey) ?? 0) < MAX_VISITORS_PER_ADDRESS;
    if (first) {
      seen.add(visitor);
      this.visitors++;
      this.perRef.set(refKey, (this.perRef.get(refKey) ?? 0) + 1);
      this.perAddress.set(addressKey, (this.perAddress.get(addressKey) ?? 0) + 1);
    }
    if (this.pending.size >= MAX_PENDING_ROWS && !this.pending.has(`${key}\0${day}`))
      this.flush({ waitForLock: false });
    const delta = { facility_id: facilityId, listing_code: code, ref, day, clicks: 1, unique_visitors: first ? 1 : 0 };
    mergeDeltas(this.pending, [delta]);
  }

  /** Writes what is pending; a failed write keeps it for the next one. */
  flush({ waitForLock = true } = {}): void {
    if (this.pending.size === 0) return;
    const batch = [...this.pending.values()];
    this.pending = new Map();
    try {
      this.sink(batch, { waitForLock });
    } catch (err) {
      mergeDeltas(this.pending, batch);
      // A busy database is routine and says nothing; any other failure (a full disk) is logged, never thrown.
      const code = String((err as { code?: unknown }).code);
      if (waitForLock || !code.startsWith('SQLITE_BUSY'))
        this.logger?.error(
          { click_count_rows: batch.length, code },
          `could not write ${batch.length} click counts (${(err as Error).message})${this.timer ? '; kept for the next write' : ': lost, the server is stopping'}`,
        );
    }
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
    this.flush();
  }

  private newDay(now: number): void {
    this.dayFrom = now - (now % DAY_MS);
    this.dayTo = this.dayFrom + DAY_MS;
    const day = dayOf(now);
    if (day === this.day) return;
    this.day = day;
    this.salt = randomBytes(16);
    this.seen.clear();
    this.perRef.clear();
    this.perAddress.clear();
    this.visitors = 0;
  }
}
