// Serialised answers per facility (bodies + strong ETags), built once from the domain views and kept until that
// facility's data changes. The API and the rental page both read them, so they cannot disagree on a price.
import { createHash } from 'node:crypto';
import { listingIdOf, type Facility, type FacilityData } from '../../domain/facility.ts';
import { COMPARATORS, type SortKey } from '../../domain/sort.ts';
import { detailOf, summaryOf } from '../../domain/views.ts';
import type { Detail, Summary } from '../../schemas/listing.ts';
import type { Db } from '../../store/db.ts';
import { facilityRevisions, revisedFacilityData } from '../../store/facilities.ts';
import type { ListQuery } from './query.ts';
import { codedEtag, compress, type Coding } from '../transport/encoding.ts';

/** One coding of an answer's body with the headers that go with it, built once. */
export interface Variant {
  bytes: Buffer;
  etag: string;
  /** For a 200 (and HEAD): etag, cache-control, content-type, content-encoding, content-length. */
  ok: readonly string[];
  /** For a 304: only what RFC 9110 15.4.5 lists (ETag, Cache-Control; Vary comes with the CORS headers). */
  notModified: readonly string[];
}

/** An answer's body: identity, and its br and gzip variants, each compressed on first demand, once. */
export interface ApiBody {
  identity: Variant;
  coded: Partial<Record<Coding, Variant>>;
}

export interface FacilityViews {
  facility: Facility;
  /** What details are made from, on first demand: the facility's rules and listings as the store gave them. */
  data: FacilityData;
  /** Each active listing's place in `data.listings`, by id. */
  index: Map<string, number>;
  revision: number;
  list: ApiBody;
  summaries: Summary[];
  /** Where each summary's JSON sits in the list body: [start, end) byte offsets, two per listing. */
  spans: Uint32Array;
  /** The listings' distinct areas, ascending: a filter bound snaps to one of them, so equal results share a body. */
  areas: Float64Array;
  /** Listing indices in each sort order, made on first use. */
  orders: Partial<Record<SortKey, Uint32Array>>;
  /** Detail bodies by listing place, made on first demand (a 10,000-listing facility is not serialised twice up front). */
  details: (ApiBody | undefined)[];
  /** Rental pages by listing place, rendered on first demand. */
  pages: (Buffer | undefined)[];
  /** Bytes counted against the budget: bodies (with room for their codings), summaries and per-body overhead. */
  size: number;
  /** When it was last used, on the cache's own clock: the least recently used facility leaves first. */
  used: number;
}

/** What a body costs beside its identity bytes: its coded variants (a fraction of it) and objects and header lists. */
const codedShare = 0.3;
const BODY_OVERHEAD = 512;
/** The summaries and the store's listings kept in the heap, against the list's JSON (measured at 10,000 listings). */
const HEAP_FACTOR = 3.5;
/** A filtered list's coding larger than this is made for its request alone: a few would crowd out whole facilities. */
const MAX_KEPT_FILTERED_BYTES = 512 * 1024;

export function bodySizeOf(bytes: number): number {
  return Math.ceil(bytes * (1 + codedShare)) + BODY_OVERHEAD;
}

export function etagOf(bytes: Buffer): string {
  return `"${createHash('sha1').update(bytes).digest('base64url')}"`;
}

function variantOf(bytes: Buffer, etag: string, coding: Coding | null): Variant {
  const notModified = ['etag', etag, 'cache-control', 'private, no-cache'];
  const encoding = coding === null ? [] : ['content-encoding', coding];
  return {
    bytes,
    etag,
    notModified,
    ok: [
      ...notModified,
      'content-type',
      'application/json; charset=utf-8',
      ...encoding,
      'content-length',
      String(bytes.length),
    ],
  };
}

export function apiBodyOf(bytes: Buffer): ApiBody {
  return { identity: variantOf(bytes, etagOf(bytes), null), coded: {} };
}

/** The body in this coding (null: identity); a coding's bytes are made on its first request and kept with the body. */
export function codedBody(body: ApiBody, coding: Coding | null): Variant {
  if (coding === null) return body.identity;
  const { bytes, etag } = body.identity;
  return (body.coded[coding] ??= variantOf(compress(bytes, coding), codedEtag(etag, coding), coding));
}

/** Builds one facility's views from the store: its list, every detail, and what filtering needs. */
function buildViews(db: Db, facilityId: string, publicUrl: string, used: number): FacilityViews | undefined {
  const read = revisedFacilityData(db, facilityId);
  if (!read) return undefined;
  const { data, revision } = read;
  const summaries = data.listings.map((l) => summaryOf(l, data, publicUrl));
  // The list body joined from each summary's JSON: the same bytes as JSON.stringify of the whole, with offsets.
  const head = `{"facility":${JSON.stringify({ id: data.facility.id, name: data.facility.name })},"listings":[`;
  const parts = summaries.map((s) => JSON.stringify(s));
  const spans = new Uint32Array(parts.length * 2);
  let at = Buffer.byteLength(head);
  parts.forEach((part, i) => {
    spans[i * 2] = at;
    at += Buffer.byteLength(part);
    spans[i * 2 + 1] = at;
    at += 1; // the comma
  });
  const list = apiBodyOf(Buffer.from(`${head}${parts.join(',')}]}`));
  return {
    facility: data.facility,
    data,
    index: new Map(data.listings.map((l, i) => [l.id, i])),
    revision,
    list,
    summaries,
    spans,
    areas: Float64Array.from(new Set(summaries.map((s) => s.area_m2))).sort(),
    orders: {},
    details: new Array<ApiBody | undefined>(data.listings.length),
    pages: new Array<Buffer | undefined>(data.listings.length),
    // The list with room for its codings, and the summaries and listings it was made from.
    size: bodySizeOf(list.identity.bytes.length) + Math.ceil(list.identity.bytes.length * HEAP_FACTOR),
    used,
  };
}

/** The facility's listing indices in `key`'s order (ties keep the import order: the sort is stable). */
function orderOf(views: FacilityViews, key: SortKey): Uint32Array {
  let order = views.orders[key];
  if (!order) {
    const s = views.summaries;
    const compare = COMPARATORS[key];
    order = views.orders[key] = Uint32Array.from(Array.from(s.keys()).sort((a, b) => compare(s[a]!, s[b]!)));
  }
  return order;
}

/** How many values of a sorted array are below x (`orEqual`: at or below x). */
function countBelow(values: Float64Array, x: number, orEqual: boolean): number {
  let lo = 0;
  let hi = values.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (values[mid]! < x || (orEqual && values[mid] === x)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * A query's result, named: area bounds snap to the listings' own areas, so the endless distinct values a client can
 * send name few results (at most areas² x sorts x 2), and every empty result is one.
 */
export function resultKey(views: FacilityViews, q: ListQuery): string {
  const { areas } = views;
  const lo = q.min_area === undefined ? 0 : countBelow(areas, q.min_area, false);
  const hi = (q.max_area === undefined ? areas.length : countBelow(areas, q.max_area, true)) - 1;
  if (lo > hi) return 'empty';
  return `${q.available === 'true' ? 'a' : ''}|${q.sort ?? ''}|${lo}|${hi}`;
}

/** The filtered list's bytes, sliced from the list body: O(listings), no serialising. */
function filteredBytesOf(views: FacilityViews, q: ListQuery): Buffer {
  const { summaries, spans } = views;
  const whole = views.list.identity.bytes;
  const order = q.sort ? orderOf(views, q.sort) : undefined;
  const picked: number[] = [];
  let length = 0;
  for (let k = 0; k < summaries.length; k++) {
    const i = order ? order[k]! : k;
    const s = summaries[i]!;
    if (q.available === 'true' && s.free_units <= 0) continue;
    if (q.min_area !== undefined && s.area_m2 < q.min_area) continue;
    if (q.max_area !== undefined && s.area_m2 > q.max_area) continue;
    picked.push(i);
    length += spans[i * 2 + 1]! - spans[i * 2]! + 1;
  }
  const headEnd = spans.length > 0 ? spans[0]! : whole.length - 2;
  const out = Buffer.allocUnsafe(headEnd + Math.max(0, length - 1) + 2);
  let at = whole.copy(out, 0, 0, headEnd);
  picked.forEach((i, n) => {
    if (n > 0) out[at++] = 0x2c; // ','
    at += whole.copy(out, at, spans[i * 2]!, spans[i * 2 + 1]!);
  });
  out[at++] = 0x5d; // ']'
  out[at++] = 0x7d; // '}'
  return out;
}

/**
 * A kept filtered list: its codings only (browsers send Accept-Encoding; identity is cut again when asked for, a pass
 * over the facility), the views it was cut from (a list of views since dropped is never served) and its cost.
 */
interface KeptList {
  views: FacilityViews;
  etag: string;
  coded: Partial<Record<Coding, Variant>>;
  cost: number;
}

export class ViewsCache {
  private readonly entries = new Map<string, FacilityViews>();
  /** Facilities whose views take more than a fraction of the budget, kept apart so small ones cannot push them out. */
  private readonly large = new Map<string, FacilityViews>();
  private bytes = 0;
  private largeBytes = 0;
  /**
   * Filtered lists of every facility, oldest first, within half the budget of their own: cheaper to make again (one pass
   * over a facility) than a facility's views (a read of the store), so they never push those out.
   */
  private readonly filtered = new Map<string, KeptList>();
  private filteredBytes = 0;
  /** Counts get() calls: recency is a number on each entry, not a Map re-insertion per hit. */
  private clock = 0;
  /** How many facilities were built from the store: for tests and the operations page. */
  builds = 0;

  constructor(
    private readonly db: Db,
    private readonly publicUrl: string,
    private readonly budgetBytes = 64 * 1024 * 1024,
  ) {}

  /** Bytes held, by tier, and by the filtered lists. */
  get held(): { small: number; large: number; filtered: number; filteredLists: number } {
    return {
      small: this.bytes,
      large: this.largeBytes,
      filtered: this.filteredBytes,
      filteredLists: this.filtered.size,
    };
  }

  clear(): void {
    this.entries.clear();
    this.large.clear();
    this.filtered.clear();
    this.bytes = 0;
    this.largeBytes = 0;
    this.filteredBytes = 0;
  }

  /** After a commit by another connection: drops the views of facilities whose revision moved (or that are gone). */
  dropChanged(): void {
    const revisions = facilityRevisions(this.db);
    for (const tier of [this.entries, this.large])
      for (const [id, views] of tier) if (revisions.get(id) !== views.revision) this.remove(id, views);
  }

  /** The facility's answers, built on first use. */
  get(facilityId: string): FacilityViews | undefined {
    const hit = this.entries.get(facilityId) ?? this.large.get(facilityId);
    if (hit) {
      hit.used = ++this.clock;
      return hit;
    }
    const views = buildViews(this.db, facilityId, this.publicUrl, ++this.clock);
    if (!views) return undefined;
    this.builds++;
    const isLarge = views.size > this.budgetBytes / 8;
    (isLarge ? this.large : this.entries).set(facilityId, views);
    this.account(views, views.size);
    return views;
  }

  /** The detail body of an active listing of the facility, made on its first request; undefined for any other id. */
  detailBody(views: FacilityViews, id: string): ApiBody | undefined {
    const i = views.index.get(id);
    if (i === undefined) return undefined;
    let body = views.details[i];
    if (!body) {
      body = views.details[i] = apiBodyOf(
        Buffer.from(JSON.stringify(detailOf(views.data.listings[i]!, views.data, this.publicUrl))),
      );
      const cost = bodySizeOf(body.identity.bytes.length);
      views.size += cost;
      this.account(views, cost);
    }
    return body;
  }

  /**
   * A listing's rental page (by code), rendered by `render` from the very Detail the API answers on its first request,
   * and kept with the facility's views; undefined for a code that is not an active listing's.
   */
  pageOf(
    views: FacilityViews,
    code: string,
    render: (detail: Detail, facility: Facility) => string,
  ): Buffer | undefined {
    const id = listingIdOf(views.facility.id, code);
    const i = views.index.get(id);
    if (i === undefined) return undefined;
    let page = views.pages[i];
    if (!page) {
      const detail = JSON.parse(this.detailBody(views, id)!.identity.bytes.toString()) as Detail;
      page = views.pages[i] = Buffer.from(render(detail, views.facility));
      views.size += page.length + BODY_OVERHEAD;
      this.account(views, page.length + BODY_OVERHEAD);
    }
    return page;
  }

  /**
   * A list's answer in a coding (null: identity): the whole list's, or a filtered one's, kept among the filtered lists.
   * `scanned`: the listings it cost a pass over (0 when it was kept), which the API charges to the key.
   */
  listVariant(
    views: FacilityViews,
    query: ListQuery | undefined,
    coding: Coding | null,
  ): { variant: Variant; scanned: number } {
    if (!query) return { variant: codedBody(views.list, coding), scanned: 0 };
    const key = resultKey(views, query);
    const name = `${views.facility.id} ${key}`;
    let kept = this.filtered.get(name);
    if (kept && kept.views !== views) {
      this.forget(name, kept);
      kept = undefined;
    }
    const hit = coding === null ? undefined : kept?.coded[coding];
    if (hit) return { variant: hit, scanned: 0 };
    // Its strong ETag names the list it was cut from and the result: no digest of the bytes (RFC 9110 8.8.3 asks only
    // that different bytes never share one).
    const etag =
      kept?.etag ?? `"${createHash('sha1').update(views.list.identity.etag).update(key).digest('base64url')}"`;
    const bytes = filteredBytesOf(views, query);
    const scanned = views.summaries.length;
    if (coding === null) return { variant: variantOf(bytes, etag, null), scanned };
    const variant = variantOf(compress(bytes, coding, 'once'), codedEtag(etag, coding), coding);
    if (variant.bytes.length <= MAX_KEPT_FILTERED_BYTES)
      this.keep(name, kept ?? { views, etag, coded: {}, cost: 0 }, variant, coding);
    return { variant, scanned };
  }

  private keep(name: string, list: KeptList, variant: Variant, coding: Coding): void {
    const cost = variant.bytes.length + BODY_OVERHEAD;
    list.coded[coding] = variant;
    list.cost += cost;
    this.filtered.set(name, list);
    this.filteredBytes += cost;
    for (const [oldest, other] of this.filtered) {
      if (this.filteredBytes <= this.budgetBytes / 2) break;
      if (other !== list) this.forget(oldest, other);
    }
  }

  private forget(name: string, list: KeptList): void {
    this.filtered.delete(name);
    this.filteredBytes -= list.cost;
  }

  /** Counts bytes a facility's views took (or gave back); over budget, the least recently used of its tier leave. */
  private account(views: FacilityViews, delta: number): void {
    const isLarge = this.large.get(views.facility.id) === views;
    const tier = isLarge ? this.large : this.entries;
    if (isLarge) this.largeBytes += delta;
    else this.bytes += delta;
    while ((isLarge ? this.largeBytes : this.bytes) > this.budgetBytes && tier.size > 1) {
      let oldest: [string, FacilityViews] | undefined;
      for (const entry of tier) if (entry[1] !== views && (!oldest || entry[1].used < oldest[1].used)) oldest = entry;
      this.remove(oldest![0], oldest![1]);
    }
  }

  private remove(id: string, views: FacilityViews): void {
    if (this.entries.get(id) === views) {
      this.entries.delete(id);
      this.bytes -= views.size;
    } else if (this.large.get(id) === views) {
      this.large.delete(id);
      this.largeBytes -= views.size;
    }
    for (const [name, list] of this.filtered) if (list.views === views) this.forget(name, list);
  }
}
