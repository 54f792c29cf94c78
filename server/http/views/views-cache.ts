// The facilities' views, kept until that facility's data changes, within a budget: small and large facilities in tiers
// of their own, filtered lists in an LRU of their own. The API reads them; rental pages have a cache of their own
// (page-cache.ts) made through the same domain detailOf, so the two cannot disagree on a price. Views made before a
// promotion starts or ends are dropped at that instant: answers and ETags change then, on a running server.
import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { memo } from '../memo.ts';
import { detailOf } from '../../domain/views.ts';
import type { Db } from '../../store/db.ts';
import { activeListingCount, facilityRevisionOf, facilityRevisions } from '../../store/facilities.ts';
import type { ListQuery } from './query.ts';
import { compress, codedEtag, compressLater, type Coding } from '../transport/encoding.ts';
import {
  apiBodyOf,
  BODY_OVERHEAD,
  bodySizeOf,
  BUILD_STEP,
  buildViews,
  buildViewsInSteps,
  codedBody,
  noCodings,
  variantOf,
  type ApiBody,
  type FacilityViews,
  type KeptList,
  type Variant,
} from './facility-views.ts';
import { filteredBytesLater, filteredBytesOf, resultKey, sortAll, sortAllInSteps } from './filtered-lists.ts';
import { sameRevisions } from './page-cache.ts';

/** Facility ids remembered as not served (unknown or inactive), at most this many. */
const MAX_MISSING = 16_384;

/** Resolves at the next turn of the event loop, after the answers to requests read meanwhile. */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** A filtered list's coding larger than this is made for its request alone: a few would crowd out whole facilities (a
 * 10,000-listing facility's cuts compress to about 600 KB, and they are the ones worth keeping). */
const MAX_KEPT_FILTERED_BYTES = 1024 * 1024;

/** A list's answer: at once, or `later` when its coding is made off the event loop. */
export type ListVariant =
  | { variant: Variant; later?: undefined; scanned: number }
  | { variant?: undefined; later: Promise<Variant>; scanned: number };

export class ViewsCache {
  /** Facilities' views by id, the least recently used out first once their bytes pass the budget. */
  private readonly entries: LRUCache<string, FacilityViews>;
  /** Facilities whose views take more than a fraction of the budget, kept apart so small ones cannot push them out. */
  private readonly large: LRUCache<string, FacilityViews>;
  /**
   * Filtered lists of every facility, oldest first, within three quarters of the budget of their own: cheaper to make
   * again (one pass over a facility) than a facility's views (a read of the store), so they never push those out, but
   * a 10,000-listing facility's cuts are each a pass over it and a compression of megabytes, and a cache a little too
   * small for a client's cycle of filters makes every one of them again. Each facility's views find their own by
   * result (views.filtered).
   */
  private readonly filtered: LRUCache<KeptList, KeptList>;
  /** The last cut queued to be made off the event loop: the next waits for it. */
  private offLoop: Promise<void> = Promise.resolve();
  /** Where the cut being made off the event loop is written (scratchOf): as large as the largest cut so far. */
  private scratch = Buffer.alloc(0);
  /** Facilities being built in steps, by id: a second request waits for the first's build. */
  private readonly building = new Map<string, Promise<FacilityViews | undefined>>();
  /** Cuts being made off the event loop, by list name and coding: a second request waits for the first. */
  private readonly cutting = new Map<string, { views: FacilityViews; variant: Promise<Variant> }>();
  /**
   * Ids the store had no served facility for, until the next data change: a key whose facility is not served costs a
   * lookup when asked again, not a store read. The least recently asked out first. (Tests read it.)
   */
  readonly missing = memo<string, true>(MAX_MISSING);
  private revisions: ReadonlyMap<string, number> | undefined;
  /** The earliest instant any kept views stop holding (a promotion starts or ends); Infinity when none will. */
  private nextExpiry = Infinity;
  /** How many facilities were built from the store: for tests and the operations page. */
  builds = 0;
  /** How many times the store was read for a facility, found or not: for tests. */
  reads = 0;

  constructor(
    private readonly db: Db,
    private readonly publicUrl: string,
    private readonly budgetBytes = 64 * 1024 * 1024,
    /** Cuts larger than this are compressed off the event loop (a server); Infinity keeps every answer synchronous. */
    private readonly offLoopBytes = Infinity,
    /** Milliseconds since the epoch: what decides which promotions are active (tests pass a controlled clock). */
    private readonly clock: () => number = Date.now,
  ) {
    this.entries = this.tier();
    this.large = this.tier();
    this.filtered = new LRUCache({
      maxSize: Math.max(1, Math.floor((budgetBytes * 3) / 4)),
      sizeCalculation: (list) => list.cost,
      // A list counted again (a second coding) is set again: its facility's views keep it.
      noDisposeOnSet: true,
      dispose: (list) => list.views.filtered.delete(list.key),
    });
  }

  /**
   * A tier within the budget. A facility's views count their bytes, and no more than the whole budget: views larger
   * than that stay, alone in their tier (every request for that facility needs them), rather than being built again
   * per request. A facility that leaves takes its filtered lists with it.
   */
  private tier(): LRUCache<string, FacilityViews> {
    const budget = this.budgetBytes;
    return new LRUCache<string, FacilityViews>({
      maxSize: budget,
      sizeCalculation: (views) => Math.min(Math.max(1, Math.ceil(views.size)), budget),
      dispose: (views) => {
        for (const list of [...views.filtered.values()]) this.filtered.delete(list);
      },
    });
  }

  /** Bytes held, by tier, and by the filtered lists. */
  get held(): { small: number; large: number; filtered: number; filteredLists: number } {
    const bytesOf = (tier: LRUCache<string, FacilityViews>) => {
      let n = 0;
      for (const views of tier.values()) n += views.size;
      return n;
    };
    return {
      small: bytesOf(this.entries),
      large: bytesOf(this.large),
      filtered: this.filtered.calculatedSize,
      filteredLists: this.filtered.size,
    };
  }

  clear(): void {
    this.entries.clear();
    this.large.clear();
    this.filtered.clear();
    this.missing.clear();
    this.nextExpiry = Infinity;
  }

  /** After a commit by another connection: drops the views of facilities whose revision moved (or that are gone). */
  dropChanged(revisions: ReadonlyMap<string, number> = facilityRevisions(this.db)): void {
    // Facilities not found stay unknown until an import moves a revision (a new facility adds one).
    if (!sameRevisions(this.revisions, revisions)) this.missing.clear();
    this.revisions = revisions;
    for (const tier of [this.entries, this.large])
      for (const [id, views] of [...tier.entries()]) if (revisions.get(id) !== views.revision) tier.delete(id);
  }

  /** The facility's answers, built on first use, and again once a promotion of theirs started or ended. */
  get(facilityId: string): FacilityViews | undefined {
    const now = this.clock();
    const hit = this.kept(facilityId, now);
    if (hit || this.missing.get(facilityId)) return hit;
    this.reads++;
    return this.keepBuilt(facilityId, buildViews(this.db, facilityId, this.publicUrl, now));
  }

  /**
   * As get(), but a facility of more than BUILD_STEP listings not built yet is built in steps over turns of the event
   * loop (when this cache makes anything off the loop at all), so that other clients' answers need not wait for it;
   * the requests that come meanwhile wait for the same build.
   */
  lookup(facilityId: string): FacilityViews | undefined | Promise<FacilityViews | undefined> {
    const hit = this.kept(facilityId, this.clock());
    if (hit) return hit;
    const building = this.building.get(facilityId);
    if (building) return building;
    if (this.offLoopBytes === Infinity || this.missing.get(facilityId)) return this.get(facilityId);
    if (activeListingCount(this.db, facilityId) <= BUILD_STEP) return this.get(facilityId);
    this.reads++;
    const built = this.buildInSteps(facilityId).finally(() => this.building.delete(facilityId));
    this.building.set(facilityId, built);
    return built;
  }

  /** The facility's views kept and still holding at `now`, as the most recently used. */
  private kept(facilityId: string, now: number): FacilityViews | undefined {
    if (now >= this.nextExpiry) this.dropExpired(now);
    return this.entries.get(facilityId) ?? this.large.get(facilityId);
  }

  /** A build in steps, read again when the facility changed after its last step: what is kept is as of now. */
  private async buildInSteps(facilityId: string): Promise<FacilityViews | undefined> {
    for (let attempt = 1; ; attempt++) {
      const views = await buildViewsInSteps(this.db, facilityId, this.publicUrl, this.clock(), nextTurn);
      if (views && this.isLarge(views)) await sortAllInSteps(views, nextTurn);
      // A change committed during the last steps moved the revision: those answers would be stale from the start.
      const moved = views !== undefined && facilityRevisionOf(this.db, facilityId) !== views.revision;
      if (moved && attempt < 3) continue;
      return moved ? this.get(facilityId) : this.keepBuilt(facilityId, views);
    }
  }

  /** Views that take more than an eighth of the budget: kept in a tier of their own, and sorted every way at once. */
  private isLarge(views: FacilityViews): boolean {
    return views.size > this.budgetBytes / 8;
  }

  /** Views just built, kept in their tier (the large ones sorted every way at once); an unknown id remembered. */
  private keepBuilt(facilityId: string, views: FacilityViews | undefined): FacilityViews | undefined {
    if (!views) {
      this.missing.set(facilityId, true);
      return undefined;
    }
    this.builds++;
    const isLarge = this.isLarge(views);
    if (isLarge) sortAll(views);
    if (views.until < this.nextExpiry) this.nextExpiry = views.until;
    this.account(isLarge ? this.large : this.entries, views);
    return views;
  }

  /** Drops the views a promotion's start or end has made stale by `now`, and finds the next such instant. */
  private dropExpired(now: number): void {
    let next = Infinity;
    for (const tier of [this.entries, this.large])
      for (const [id, views] of [...tier.entries()]) {
        if (views.until <= now) tier.delete(id);
        else if (views.until < next) next = views.until;
      }
    this.nextExpiry = next;
  }

  /** The detail body of an active listing of the facility, made on its first request; undefined for any other id. */
  detailBody(views: FacilityViews, id: string): ApiBody | undefined {
    const i = views.index.get(id);
    if (i === undefined) return undefined;
    let body = views.details[i];
    if (!body) {
      const detail = detailOf(views.data.listings[i]!, views.data, this.publicUrl, views.at, undefined, views.info);
      body = views.details[i] = apiBodyOf(Buffer.from(JSON.stringify(detail)));
      views.madeDetails.push(i);
      this.grow(views, bodySizeOf(body.identity.bytes.length));
    }
    return body;
  }

  /**
   * A list's answer in a coding (null: identity): the whole list's, or a filtered one's, kept among the filtered lists.
   * A coding of a cut from a list larger than `offLoopBytes` comes `later`, made off the event loop. `scanned`: the
   * listings it cost a pass over (0 when it was kept or is being made), which the API charges to the key.
   */
  listVariant(views: FacilityViews, query: ListQuery | undefined, coding: Coding | null): ListVariant {
    if (!query) {
      const body = views.list;
      if (coding === null || body.coded[coding] || body.identity.bytes.length <= this.offLoopBytes)
        return { variant: codedBody(body, coding), scanned: 0 };
      return { later: this.codeLater(views, coding), scanned: 0 };
    }
    const key = resultKey(views, query);
    const kept = views.filtered.get(key);
    const hit = kept?.coded[coding ?? 'identity'];
    if (hit) return { variant: hit, scanned: 0 };
    const making = `${views.facility.id} ${key} ${coding}`;
    const cutting = this.cutting.get(making);
    if (cutting?.views === views) return { later: cutting.variant, scanned: 0 };
    // Its strong ETag names the list it was cut from and the result: no digest of the bytes (RFC 9110 8.8.3 asks only
    // that different bytes never share one).
    const etag =
      kept?.etag ?? `"${createHash('sha1').update(views.list.identity.etag).update(String(key)).digest('base64url')}"`;
    const scanned = views.area.length;
    const list = kept ?? { views, key, etag, coded: noCodings(), cost: 0 };
    if (views.list.identity.bytes.length > this.offLoopBytes)
      return { later: this.cutLater(making, list, query, coding), scanned };
    const bytes = filteredBytesOf(views, query);
    const variant =
      coding === null
        ? variantOf(bytes, etag, null)
        : variantOf(compress(bytes, coding, 'once'), codedEtag(list.etag, coding), coding);
    if (variant.bytes.length <= MAX_KEPT_FILTERED_BYTES) this.keep(list, variant, coding);
    return { variant, scanned };
  }

  /**
   * A large facility's cut, made in steps over turns of the event loop and compressed in the thread pool, one at a
   * time: however many arrive in one batch, other clients' answers wait for at most one step of one cut.
   */
  private cutLater(id: string, list: KeptList, query: ListQuery, coding: Coding | null): Promise<Variant> {
    const variant = this.offLoop
      .then(() => filteredBytesLater(list.views, query, (size) => this.scratchOf(size)))
      // As they are, the bytes leave the scratch buffer, which the next cut writes over.
      .then((bytes) => (coding === null ? Buffer.from(bytes) : compressLater(bytes, coding, 'once')))
      .then(
        (out) => {
          this.cutting.delete(id);
          const made =
            coding === null ? variantOf(out, list.etag, null) : variantOf(out, codedEtag(list.etag, coding), coding);
          // Kept only if its facility's views are still the ones served (no data change while it was made).
          const facility = list.views.facility.id;
          const current = this.entries.peek(facility) ?? this.large.peek(facility);
          if (current === list.views && out.length <= MAX_KEPT_FILTERED_BYTES) this.keep(list, made, coding);
          return made;
        },
        (err: unknown) => {
          this.cutting.delete(id);
          throw err;
        },
      );
    this.offLoop = variant.then(
      () => undefined,
      () => undefined,
    );
    this.cutting.set(id, { views: list.views, variant });
    return variant;
  }

  /** A large list's coding, compressed in the thread pool once for the requests that come meanwhile, then kept. */
  private codeLater(views: FacilityViews, coding: Coding): Promise<Variant> {
    const id = `${views.facility.id} list ${coding}`;
    const making = this.cutting.get(id);
    if (making?.views === views) return making.variant;
    const { bytes, etag } = views.list.identity;
    const variant = compressLater(bytes, coding, 'kept').then(
      (out) => {
        this.cutting.delete(id);
        return (views.list.coded[coding] ??= variantOf(out, codedEtag(etag, coding), coding));
      },
      (err: unknown) => {
        this.cutting.delete(id);
        throw err;
      },
    );
    this.cutting.set(id, { views, variant });
    return variant;
  }

  /**
   * The buffer a large cut is made in before it is compressed: one, reused, as the cuts are made one at a time. A cut of
   * its own each time would be megabytes that outlive a few scavenges, so the old generation fills with dead buffers
   * and V8 marks the whole heap again and again, which every other answer waits behind.
   */
  private scratchOf(size: number): Buffer {
    if (this.scratch.length < size) this.scratch = Buffer.allocUnsafe(size);
    return this.scratch.subarray(0, size);
  }

  private keep(list: KeptList, variant: Variant, coding: Coding | null): void {
    const cost = variant.bytes.length + BODY_OVERHEAD;
    list.coded[coding ?? 'identity'] = variant;
    list.cost += cost;
    list.views.filtered.set(list.key, list);
    // Oldest out first past three quarters of the budget; a list larger than that alone is not kept.
    this.filtered.set(list, list);
    if (!this.filtered.has(list)) list.views.filtered.delete(list.key);
  }

  /** A facility's views grew by what was made on demand (a Detail): counted, maybe over budget. */
  private grow(views: FacilityViews, cost: number): void {
    views.size += cost;
    const id = views.facility.id;
    const tier =
      this.entries.peek(id) === views ? this.entries : this.large.peek(id) === views ? this.large : undefined;
    if (tier) this.account(tier, views);
  }

  /**
   * Sets a facility's views in their tier at their size now: views over the whole budget first give back their own
   * Details in the order they were made, then the least recently used of the tier leave until the budget holds them.
   */
  private account(tier: LRUCache<string, FacilityViews>, views: FacilityViews): void {
    while (views.size > this.budgetBytes && views.madeDetails.length > 0) {
      const i = views.madeDetails.shift()!;
      views.size -= bodySizeOf(views.details[i]!.identity.bytes.length);
      views.details[i] = undefined;
    }
    tier.set(views.facility.id, views);
  }
}
