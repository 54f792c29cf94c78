// Rental pages, each made from one listing read from the store through the domain's detailOf (the Detail the API
// answers), kept apart from the facilities' views within a byte budget of their own, least recently used out first;
// each with its ETag, and its br and gzip forms made on their first request and counted in the same budget.
import type { Facility } from '../../domain/facility.ts';
import { detailOf } from '../../domain/views.ts';
import type { Coding } from '../transport/encoding.ts';
import { apiBodyOf, codedBody, type ApiBody, type Variant } from './facility-views.ts';
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
  /** The page, its ETag, and the codings made of it so far. */
  body: ApiBody;
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
   * The page of the facility's active listing with this code, rendered by `render` when not kept, in `coding` (null:
   * identity); else undefined. `'busy'` when it is not kept and `mayRead()` refuses the store read a render needs. A
   * `variant` (a language) is kept apart from the listing's other variants, under the same budget.
   */
  pageOf(
    facilityId: string,
    code: string,
    render: RenderPage,
    mayRead: () => boolean = () => true,
    variant = '',
    coding: Coding | null = null,
  ): Variant | undefined | 'busy' {
    // The lengths first: no facility id, code and variant can spell another's key. Codes not served are one per pair.
    const listingKey = `${facilityId.length}:${facilityId}${code}`;
    const key = `${code.length}:${listingKey}${variant}`;
    const kept = this.pages.get(key);
    const now = this.clock();
    if (kept && now >= kept.until) this.pages.delete(key);
    else if (kept) return this.inCoding(key, kept, coding);
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
    const body = apiBodyOf(page);
    const made = this.keep(key, facilityId, revision, body, nextPromotionChange(listing.promotions, now) ?? Infinity);
    // A page larger than the whole budget is served as it is: compressing it would be for this one request.
    return made ? this.inCoding(key, made, coding) : body.identity;
  }

  /** The kept page in this coding: compressed on its first request, once, its bytes then counted in the budget. */
  private inCoding(key: string, kept: KeptPage, coding: Coding | null): Variant {
    if (coding === null || kept.body.coded[coding]) return codedBody(kept.body, coding);
    const made = codedBody(kept.body, coding);
    // A new entry object: lru-cache sizes an entry again only when its value changes.
    this.pages.set(key, { ...kept, cost: kept.cost + made.bytes.length });
    if (!this.pages.has(key)) this.unlink(kept.facilityId, key);
    return made;
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

  /** Keeps the page; undefined when it is larger than the whole budget, which lru-cache refuses. */
  private keep(key: string, facilityId: string, revision: number, body: ApiBody, until: number): KeptPage | undefined {
    const cost = body.identity.bytes.length + PAGE_OVERHEAD + key.length * 2;
    let pages = this.facilities.get(facilityId);
    if (pages?.revision !== revision) {
      // Read at another revision than the pages kept: a change not noticed yet, so those pages are stale.
      this.dropFacility(facilityId);
      this.facilities.set(facilityId, (pages = { revision, keys: new Set() }));
    }
    pages.keys.add(key);
    const kept = { facilityId, body, cost, until };
    this.pages.set(key, kept);
    if (this.pages.has(key)) return kept;
    this.unlink(facilityId, key);
    return undefined;
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
