// Rental pages, each made from one listing read from the store through the domain's detailOf (the Detail the API
// answers), kept apart from the facilities' views within a byte budget of their own, least recently used out first.
import type { Facility } from '../../domain/facility.ts';
import { detailOf } from '../../domain/views.ts';
import type { Detail } from '../../../shared/listing.ts';
import type { Db } from '../../store/db.ts';
import { revisedListing } from '../../store/facilities.ts';
import { nextPromotionChange } from '../../../shared/promotions.ts';
import { LRUCache } from 'lru-cache';

/** What a kept page costs beside its bytes: its entry, its key and the objects that hold it. */
const PAGE_OVERHEAD = 256;
/** What a remembered code that is not served costs beside its key's characters (two bytes each, at most). */
const MISSING_OVERHEAD = 64;

export type RenderPage = (detail: Detail, facility: Facility) => string;

interface KeptPage {
  facilityId: string;
  page: Buffer;
  cost: number;
  /** When one of its promotions starts or ends, so the page changes (ms since the epoch); Infinity when none will. */
  until: number;
}

/** A facility's kept pages and the revision they were made at. */
interface FacilityPages {
  revision: number;
  keys: Set<string>;
}

export class PageCache {
  /** Kept pages by facility and code, the least recently used out first once their bytes pass the budget. */
  private readonly pages: LRUCache<string, KeptPage>;
  private readonly facilities = new Map<string, FacilityPages>();
  /** Facility and code pairs the store had no active listing for, until the next data change: anyone may ask any. */
  private readonly missing: LRUCache<string, true>;
  /** The revisions the last change was judged against: missing codes were remembered under them. */
  private revisions: ReadonlyMap<string, number> | undefined;
  /** How many times the store was read for a page, found or not: for tests. */
  reads = 0;

  constructor(
    private readonly db: Db,
    private readonly publicUrl: string,
    budgetBytes = 16 * 1024 * 1024,
    /** Bytes of remembered codes that are not served: past it the least recently asked are forgotten. */
    missingBudgetBytes = 1024 * 1024,
    /** Milliseconds since the epoch: what decides which promotions are active (tests pass a controlled clock). */
    private readonly clock: () => number = Date.now,
  ) {
    // A page larger than the whole budget is served, never kept (lru-cache refuses an entry above maxSize).
    this.pages = new LRUCache({
      maxSize: budgetBytes,
      sizeCalculation: (kept) => kept.cost,
      dispose: (kept, key) => this.unlink(kept.facilityId, key),
      noDisposeOnSet: true,
    });
    this.missing = new LRUCache({
      maxSize: missingBudgetBytes,
      sizeCalculation: (_v, key) => key.length * 2 + MISSING_OVERHEAD,
    });
  }

  /** Bytes and pages held, and bytes of remembered codes that are not served. */
  get held(): { bytes: number; pages: number; missingBytes: number } {
    return { bytes: this.pages.calculatedSize, pages: this.pages.size, missingBytes: this.missing.calculatedSize };
  }

  /**
   * The page of the facility's active listing with this code, rendered by `render` when not kept; else undefined.
   * `'busy'` when it is not kept and `mayRead()` refuses the store read a render needs. A `variant` (a language) is
   * kept apart from the listing's other variants, under the same budget.
   */
  pageOf(
    facilityId: string,
    code: string,
    render: RenderPage,
    mayRead: () => boolean = () => true,
    variant = '',
  ): Buffer | undefined | 'busy' {
    // The lengths first: no facility id, code and variant can spell another's key. Codes not served are one per pair.
    const listingKey = `${facilityId.length}:${facilityId}${code}`;
    const key = `${code.length}:${listingKey}${variant}`;
    const kept = this.pages.get(key);
    const now = this.clock();
    if (kept && now >= kept.until) this.pages.delete(key);
    else if (kept) return kept.page;
    if (this.missing.has(listingKey)) return undefined;
    if (!mayRead()) return 'busy';
    this.reads++;
    const read = revisedListing(this.db, facilityId, code);
    if (!read) {
      this.missing.set(listingKey, true);
      return undefined;
    }
    const { data, revision } = read;
    const listing = data.listings[0]!;
    const text = render(detailOf(listing, data, this.publicUrl, now), data.facility);
    // Memory of its own: a slice of Buffer's shared pool would keep a whole 8 KB slab alive for a 2 KB page, uncounted.
    const page = Buffer.allocUnsafeSlow(Buffer.byteLength(text));
    page.write(text);
    this.keep(key, facilityId, revision, page, nextPromotionChange(listing.promotions, now) ?? Infinity);
    return page;
  }

  /**
   * Drops the pages of facilities whose revision moved (or that are gone); remembered missing codes only when some
   * facility's revision moved, since only an import makes a code appear (a commit of keys, last use or webhooks does not).
   */
  dropChanged(revisions: ReadonlyMap<string, number>): void {
    if (!sameRevisions(this.revisions, revisions)) this.missing.clear();
    this.revisions = revisions;
    for (const [id, kept] of this.facilities) if (revisions.get(id) !== kept.revision) this.dropFacility(id);
  }

  private keep(key: string, facilityId: string, revision: number, page: Buffer, until: number): void {
    const cost = page.length + PAGE_OVERHEAD + key.length * 2;
    let pages = this.facilities.get(facilityId);
    if (pages?.revision !== revision) {
      // Read at another revision than the pages kept: a change not noticed yet, so those pages are stale.
      this.dropFacility(facilityId);
      this.facilities.set(facilityId, (pages = { revision, keys: new Set() }));
    }
    pages.keys.add(key);
    this.pages.set(key, { facilityId, page, cost, until });
    if (!this.pages.has(key)) this.unlink(facilityId, key);
  }

  /** A page gone from the cache (evicted, expired, dropped) is no longer among its facility's. */
  private unlink(facilityId: string, key: string): void {
    const pages = this.facilities.get(facilityId);
    if (!pages) return;
    pages.keys.delete(key);
    if (pages.keys.size === 0) this.facilities.delete(facilityId);
  }

  private dropFacility(id: string): void {
    const pages = this.facilities.get(id);
    if (!pages) return;
    for (const key of [...pages.keys]) this.pages.delete(key);
    this.facilities.delete(id);
  }
}

/** Whether two reads of every facility's revision are the same: nothing was imported between them. */
export function sameRevisions(a: ReadonlyMap<string, number> | undefined, b: ReadonlyMap<string, number>): boolean {
  if (a === undefined || a.size !== b.size) return false;
  for (const [id, revision] of b) if (a.get(id) !== revision) return false;
  return true;
}
