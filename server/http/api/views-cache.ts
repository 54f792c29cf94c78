// Serialised answers per facility (bodies + strong ETags), built once from the domain views and kept until data changes.
import { createHash } from 'node:crypto';
import { detailOf, summaryOf } from '../../domain/views.ts';
import type { Summary } from '../../schemas/listing.ts';
import type { Db } from '../../store/db.ts';
import { facilityData } from '../../store/facilities.ts';
import { applyListQuery, queryKey, type ListQuery } from './query.ts';
import { codedEtag, compress, type Coding } from '../transport/encoding.ts';

export interface Body {
  bytes: Buffer;
  etag: string;
}

/** One coding of an answer's body with the headers that go with it, built once: etag, cache-control, content-type (and length). */
export interface Variant extends Body {
  /** For a 200 (and HEAD). */
  ok: readonly string[];
  /** For a 304: only what RFC 9110 15.4.5 lists (ETag, Cache-Control; Vary comes with the CORS headers), no body metadata. */
  notModified: readonly string[];
  /** The API's whole header list for a 200 and for a 304, kept for the last CORS list and key profile it was made for. */
  okList: KeptList | undefined;
  notModifiedList: KeptList | undefined;
}

/** A whole header list and what it was made from (the API's headerListFor makes and reads these). */
export interface KeptList {
  cors: readonly string[];
  profile: object;
  list: string[];
}

/**
 * An API answer's body: the identity variant, and its br and gzip variants, each compressed on first demand, once.
 * Every coding is a Variant of one shape, so the hot path reads its fields through one hidden class. When the identity
 * body was a wider object (a Variant plus `coded`), serving br as well turned those reads polymorphic for the rest of
 * the process. (The larger falls seen in full bench runs then were most likely V8's memory reducer: server/node-flags.ts.)
 */
export interface ApiBody {
  identity: Variant;
  coded: Partial<Record<Coding, Variant>>;
}

export interface FacilityViews {
  facility: { id: string; name: string };
  summaries: Summary[];
  list: ApiBody;
  details: DetailIndex;
  filtered: Map<string, ApiBody>;
  /** Bytes counted against the budget: the bodies with their overhead, doubled for the summaries, codings and filters. */
  size: number;
  /** When it was last used, on the cache's own clock: the least recently used facility leaves first. */
  used: number;
}

const MAX_FILTERED = 32;
/**
 * What a body costs beside its bytes, counted against the budget: its objects and header lists, and the whole header
 * lists the API keeps with each coding (about 130 bytes each, two per coding at most).
 */
const BODY_OVERHEAD = 1024;

export function bodyOf(value: unknown): Body {
  const bytes = Buffer.from(JSON.stringify(value));
  return { bytes, etag: `"${createHash('sha1').update(bytes).digest('base64url')}"` };
}

function variantOf(bytes: Buffer, etag: string, coding: Coding | null): Variant {
  const notModified = ['etag', etag, 'cache-control', 'private, no-cache'];
  const encoding = coding === null ? [] : ['content-encoding', coding];
  // Not frozen (readonly in type only): V8 spreads frozen arrays on a slower path (the API spreads these into its lists).
  return {
    bytes,
    etag,
    notModified,
    okList: undefined,
    notModifiedList: undefined,
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

function apiBodyOf(value: unknown): ApiBody {
  const body = bodyOf(value);
  return { identity: variantOf(body.bytes, body.etag, null), coded: {} };
}

/** The body in this coding (null: identity); a coding's bytes are made on its first request and kept with the body. */
export function codedBody(body: ApiBody, coding: Coding | null): Variant {
  if (coding === null) return body.identity;
  const { bytes, etag } = body.identity;
  return (body.coded[coding] ??= variantOf(compress(bytes, coding), codedEtag(etag, coding), coding));
}

/**
 * A facility's detail bodies by listing id, found where the id sits in the request's path: no slice and no hash of a
 * string made per request (Map.get(path.slice(...)) cost about 40 ns of the API's ~400 per request). Listing ids end in
 * hex digits of a SHA-256 (domain/facility.ts), so their last five characters choose the slot; any other text is only
 * a miss. Open addressing, at most half full.
 */
export class DetailIndex {
  private readonly slots: ({ id: string; body: ApiBody } | undefined)[];
  private readonly mask: number;

  constructor(entries: readonly (readonly [string, ApiBody])[]) {
    let size = 16;
    while (size < entries.length * 2) size *= 2;
    this.mask = size - 1;
    this.slots = new Array<{ id: string; body: ApiBody } | undefined>(size).fill(undefined);
    for (const [id, body] of entries) {
      let i = slotOf(id) & this.mask;
      while (this.slots[i] !== undefined) i = (i + 1) & this.mask;
      this.slots[i] = { id, body };
    }
  }

  /** The body of the listing whose id is `path` from `start` on. */
  get(path: string, start = 0): ApiBody | undefined {
    const length = path.length - start;
    for (let i = slotOf(path) & this.mask; ; i = (i + 1) & this.mask) {
      const slot = this.slots[i];
      if (slot === undefined) return undefined;
      if (slot.id.length === length && path.endsWith(slot.id)) return slot.body;
    }
  }
}

/** The last five characters as hex digits (0-9, a-f; anything else gives some other number): a slot in DetailIndex. */
function slotOf(s: string): number {
  let h = 0;
  for (let i = Math.max(0, s.length - 5); i < s.length; i++) {
    const c = s.charCodeAt(i);
    h = (h << 4) + (c & 15) + (c >> 6) * 9;
  }
  return h;
}

export class ViewsCache {
  private readonly entries = new Map<string, FacilityViews>();
  private bytes = 0;
  /** Counts get() calls. Recency is a number on each entry, not a Map re-insertion per hit: re-inserting churns the
   * Map's backing store, about 20 bytes of old-generation garbage per request (RSS +40 MB a minute at 35k req/s). */
  private clock = 0;

  constructor(
    private readonly db: Db,
    private readonly publicUrl: string,
    private readonly budgetBytes = 64 * 1024 * 1024,
  ) {}

  clear(): void {
    this.entries.clear();
    this.bytes = 0;
  }

  /** The facility's answers, built on first use; least recently used facilities leave first when over budget. */
  get(facilityId: string): FacilityViews | undefined {
    const hit = this.entries.get(facilityId);
    if (hit) {
      hit.used = ++this.clock;
      return hit;
    }
    const data = facilityData(this.db, facilityId);
    if (!data) return undefined;
    const summaries = data.listings.map((l) => summaryOf(l, data, this.publicUrl));
    const facility = { id: data.facility.id, name: data.facility.name };
    const list = apiBodyOf({ facility, listings: summaries });
    const bodies: [string, ApiBody][] = [];
    let size = list.identity.bytes.length + BODY_OVERHEAD;
    for (const l of data.listings) {
      const b = apiBodyOf(detailOf(l, data, this.publicUrl));
      bodies.push([l.id, b]);
      size += b.identity.bytes.length + BODY_OVERHEAD;
    }
    const details = new DetailIndex(bodies);
    const views: FacilityViews = {
      facility,
      summaries,
      list,
      details,
      filtered: new Map(),
      size: size * 2,
      used: ++this.clock,
    };
    this.entries.set(facilityId, views);
    this.bytes += views.size;
    while (this.bytes > this.budgetBytes && this.entries.size > 1) this.evictLeastRecent();
    return views;
  }

  /** One scan per eviction, which happens only when a facility is built over budget. */
  private evictLeastRecent(): void {
    let oldest: [string, FacilityViews] | undefined;
    for (const entry of this.entries) if (!oldest || entry[1].used < oldest[1].used) oldest = entry;
    this.entries.delete(oldest![0]);
    this.bytes -= oldest![1].size;
  }

  listBody(views: FacilityViews, query: ListQuery | undefined): ApiBody {
    if (!query) return views.list;
    const key = queryKey(query);
    let body = views.filtered.get(key);
    if (!body) {
      body = apiBodyOf({ facility: views.facility, listings: applyListQuery(views.summaries, query) });
      if (views.filtered.size >= MAX_FILTERED) views.filtered.delete(views.filtered.keys().next().value!);
      views.filtered.set(key, body);
    }
    return body;
  }
}
