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
import { codedEtag, compress, ONCE_COMPRESS_MAX, type Coding, type Effort } from '../transport/encoding.ts';

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
  effort: Effort;
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
  filtered: Map<string, ApiBody>;
  filteredBytes: number;
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
/** Filtered lists kept per facility: enough for every result a facility's few distinct areas make in practice. */
const MAX_FILTERED = 1024;
/** A filtered list larger than this is made for its request alone: a few of them would crowd out whole facilities. */
const MAX_KEPT_FILTERED_BYTES = 256 * 1024;

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

export function apiBodyOf(bytes: Buffer, effort: Effort = 'kept', etag = etagOf(bytes)): ApiBody {
  return { identity: variantOf(bytes, etag, null), coded: {}, effort };
}

/** The body in this coding (null: identity); a coding's bytes are made on its first request and kept with the body. */
export function codedBody(body: ApiBody, coding: Coding | null): Variant {
  if (coding === null || (body.effort === 'once' && body.identity.bytes.length > ONCE_COMPRESS_MAX))
    return body.identity;
  const { bytes, etag } = body.identity;
  return (body.coded[coding] ??= variantOf(compress(bytes, coding, body.effort), codedEtag(etag, coding), coding));
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
    filtered: new Map(),
    filteredBytes: 0,
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

export class ViewsCache {
  private readonly entries = new Map<string, FacilityViews>();
  /** Facilities whose views take more than a fraction of the budget, kept apart so small ones cannot push them out. */
  private readonly large = new Map<string, FacilityViews>();
  private bytes = 0;
  private largeBytes = 0;
  /** Counts get() calls: recency is a number on each entry, not a Map re-insertion per hit. */
  private clock = 0;
  /** How many facilities were built from the store: for tests and the operations page. */
  builds = 0;

  constructor(
    private readonly db: Db,
    private readonly publicUrl: string,
    private readonly budgetBytes = 64 * 1024 * 1024,
  ) {}

  /** Bytes held, by tier. */
  get held(): { small: number; large: number } {
    return { small: this.bytes, large: this.largeBytes };
  }

  clear(): void {
    this.entries.clear();
    this.large.clear();
    this.bytes = 0;
    this.largeBytes = 0;
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
   * The list body for a query: the whole list, or a filtered one, kept while its facility's share allows. `scanned`: the
   * listings a new body cost a pass over (0 when it was kept), which the API charges to the key.
   */
  listBody(views: FacilityViews, query: ListQuery | undefined): { body: ApiBody; scanned: number } {
    if (!query) return { body: views.list, scanned: 0 };
    const key = resultKey(views, query);
    const kept = views.filtered.get(key);
    if (kept) return { body: kept, scanned: 0 };
    // Its strong ETag names the list it was cut from and the result: no digest of the bytes (RFC 9110 8.8.3 asks only
    // that different bytes never share one).
    const etag = `"${createHash('sha1').update(views.list.identity.etag).update(key).digest('base64url')}"`;
    const body = apiBodyOf(filteredBytesOf(views, query), 'once', etag);
    const made = { body, scanned: views.summaries.length };
    if (body.identity.bytes.length > MAX_KEPT_FILTERED_BYTES) return made;
    const cost = bodySizeOf(body.identity.bytes.length);
    // A facility's filtered bodies may take 16 times the room its list does (1 MiB at least): beyond it, the oldest go.
    const share = Math.max(1024 * 1024, 16 * views.list.identity.bytes.length);
    let freed = 0;
    for (const [k, old] of views.filtered) {
      if (views.filteredBytes - freed + cost <= share && views.filtered.size < MAX_FILTERED) break;
      freed += bodySizeOf(old.identity.bytes.length);
      views.filtered.delete(k);
    }
    views.filtered.set(key, body);
    views.filteredBytes += cost - freed;
    views.size += cost - freed;
    this.account(views, cost - freed);
    return made;
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
  }
}
