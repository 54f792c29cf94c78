// One facility's answers, built from the store through the domain views: the list body with each summary's place in it,
// Detail bodies made on first demand, and each body's codings. The views cache keeps them; the API reads them.
import { createHash } from 'node:crypto';
import type { Facility, FacilityData } from '../../domain/facility.ts';
import type { SortKey } from '../../../shared/sort.ts';
import { facilityInfoOf, summaryOf } from '../../domain/views.ts';
import { FEATURES, UNIT_TYPES, type FacilityInfo, type Summary } from '../../../shared/listing.ts';
import { nextPromotionChange } from '../../../shared/promotions.ts';
import type { Db } from '../../store/db.ts';
import { activeListingsAfter, revisedFacilityHead, revisedFacilityData } from '../../store/facilities.ts';
import { codedEtag, compress, type Coding } from '../transport/encoding.ts';
import { bitsOf } from './query.ts';

/** One coding of an answer's body, with its strong ETag. */
export interface Variant {
  bytes: Buffer;
  etag: string;
  /** Its Content-Encoding; null for identity. */
  coding: Coding | null;
}

/** An answer's body: identity, and its br and gzip variants, each compressed on first demand, once. */
export interface ApiBody {
  identity: Variant;
  coded: Partial<Record<Coding, Variant>>;
}

/**
 * A kept filtered list: its codings only (browsers send Accept-Encoding; identity is cut again when asked for, a pass
 * over the facility), the views it was cut from and its cost.
 */
export interface KeptList {
  views: FacilityViews;
  key: number;
  etag: string;
  /** Its bytes in each coding asked for so far (`identity`: as they are), those small enough to keep. */
  coded: Partial<Record<Coding | 'identity', Variant>>;
  cost: number;
}

export interface FacilityViews {
  facility: Facility;
  /** What details are made from, on first demand: the facility's rules and listings as the store gave them. */
  data: FacilityData;
  /** Each active listing's place in `data.listings`, by id. */
  index: Map<string, number>;
  revision: number;
  list: ApiBody;
  /** Each listing's regular gross price, as a sort by price reads it (the summaries themselves are not kept). */
  gross: Float64Array;
  /** Where each summary's JSON sits in the list body: [start, end) byte offsets, two per listing. */
  spans: Uint32Array;
  /** The instant (ms since the epoch) the answers were made at: Details made later are made as of it too. */
  at: number;
  /** The first instant after `at` at which a promotion starts or ends, so an answer changes; Infinity when none will. */
  until: number;
  /** The facility's fees and protection, as every Detail carries them: made once. */
  info: Pick<FacilityInfo, 'fees' | 'protection'>;
  /**
   * What a filter reads, by place, in typed columns: each listing's area, whether it has free units (1) or not (0), its
   * features as bits (FEATURES order) and its unit type (1 + its place in UNIT_TYPES; 0: none).
   */
  area: Float64Array;
  free: Uint8Array;
  features: Uint16Array;
  unitType: Uint8Array;
  /** The bits of every feature and unit type any listing has: a filter naming another matches nothing. */
  featuresPresent: number;
  unitTypesPresent: number;
  /** The listings' distinct areas, ascending: a filter bound snaps to one of them, so equal results share a body. */
  areas: Float64Array;
  /** Listing indices in each sort order, made on first use. */
  orders: Partial<Record<SortKey, Uint32Array>>;
  /** Detail bodies by listing place, made on first demand (a 10,000-listing facility is not serialised twice up front). */
  details: (ApiBody | undefined)[];
  /** The places of the Details made, oldest first: over budget they leave in this order. */
  madeDetails: number[];
  /** Its filtered lists kept by the views cache, by result (filtered-lists.ts, resultKey). */
  filtered: Map<number, KeptList>;
  /** Bytes counted against the budget: bodies (with room for their codings), summaries and per-body overhead. */
  size: number;
}

/** What a body costs beside its identity bytes: its coded variants (a fraction of it) and objects and headers. */
const codedShare = 0.3;
export const BODY_OVERHEAD = 512;
/**
 * The store's listings, the filters' arrays and the sort orders kept in the heap, against the list's JSON (1.4 measured
 * at 10,000 listings of the bench's data). The summaries are not kept: a Detail makes its own on its first request.
 */
const HEAP_FACTOR = 1.5;
export function bodySizeOf(bytes: number): number {
  return Math.ceil(bytes * (1 + codedShare)) + BODY_OVERHEAD;
}

function etagOf(bytes: Buffer): string {
  return `"${createHash('sha1').update(bytes).digest('base64url')}"`;
}

export function variantOf(bytes: Buffer, etag: string, coding: Coding | null): Variant {
  return { bytes, etag, coding };
}

/** Codings not made yet: both slots from the start, so every body's `coded` has one shape (a monomorphic load). */
export function noCodings(): Partial<Record<Coding, Variant>> {
  return { br: undefined, gzip: undefined };
}

export function apiBodyOf(bytes: Buffer): ApiBody {
  return { identity: variantOf(bytes, etagOf(bytes), null), coded: noCodings() };
}

/** The body in this coding (null: identity); a coding's bytes are made on its first request and kept with the body. */
export function codedBody(body: ApiBody, coding: Coding | null): Variant {
  if (coding === null) return body.identity;
  const { bytes, etag } = body.identity;
  return (body.coded[coding] ??= variantOf(compress(bytes, coding), codedEtag(etag, coding), coding));
}

/**
 * Builds one facility's views from the store, as of the instant `now`: its list, what filtering needs, and until when
 * they hold (the next promotion start or end).
 */
export function buildViews(db: Db, facilityId: string, publicUrl: string, now: number): FacilityViews | undefined {
  const read = revisedFacilityData(db, facilityId);
  if (!read) return undefined;
  const summaries = read.data.listings.map((l) => summaryOf(l, read.data, publicUrl, now));
  const info = facilityInfoOf(read.data.facility);
  const steps = listSteps(
    info,
    summaries.map((s) => JSON.stringify(s)),
  );
  let step = steps.next();
  while (!step.done) step = steps.next();
  return viewsOf(read, now, info, summaries, step.value);
}

/** Listings read or made per step of a build in steps: a few milliseconds each. */
export const BUILD_STEP = 250;

/**
 * As buildViews, in steps of BUILD_STEP listings over turns of the event loop (a 10,000-listing facility takes about
 * half a second to read and make): pages of listings read with the facility's revision, then summaries made a step at
 * a time. An import of the facility between two steps starts the read again; after `attempts` such reads it is read in
 * one go. `turn` resolves at the next turn of the loop.
 */
export async function buildViewsInSteps(
  db: Db,
  facilityId: string,
  publicUrl: string,
  now: number,
  turn: () => Promise<void>,
  attempts = 3,
): Promise<FacilityViews | undefined> {
  for (let attempt = 0; attempt < attempts; attempt++) {
    const read = await readInSteps(db, facilityId, turn);
    if (read === 'moved') continue;
    if (!read) return undefined;
    const { listings } = read.data;
    const summaries: Summary[] = [];
    const parts: string[] = [];
    for (let i = 0; i < listings.length; i += BUILD_STEP) {
      await turn();
      for (const l of listings.slice(i, i + BUILD_STEP)) {
        const summary = summaryOf(l, read.data, publicUrl, now);
        summaries.push(summary);
        parts.push(JSON.stringify(summary));
      }
    }
    const info = facilityInfoOf(read.data.facility);
    const steps = listSteps(info, parts);
    let step = steps.next();
    for (; !step.done; step = steps.next()) await turn();
    return viewsOf(read, now, info, summaries, step.value);
  }
  return buildViews(db, facilityId, publicUrl, now);
}

/** The facility's data read a page at a time; 'moved' when an import changed it between two pages. */
async function readInSteps(
  db: Db,
  facilityId: string,
  turn: () => Promise<void>,
): Promise<{ data: FacilityData; revision: number } | undefined | 'moved'> {
  const head = revisedFacilityHead(db, facilityId);
  if (!head) return undefined;
  for (let after = -1; ;) {
    await turn();
    const page = activeListingsAfter(db, facilityId, after, BUILD_STEP);
    if (page.revision !== head.revision) return 'moved';
    head.data.listings.push(...page.listings);
    if (page.listings.length < BUILD_STEP) return head;
    after = page.last;
  }
}

/**
 * The list body joined from each summary's JSON (the same bytes as JSON.stringify of the whole), each summary's byte
 * offsets in it, and its ETag: written into one buffer and hashed BUILD_STEP summaries at a time, yielding between
 * steps (a 10,000-listing facility's list is megabytes).
 */
function* listSteps(info: FacilityInfo, parts: string[]): Generator<void, { list: ApiBody; spans: Uint32Array }> {
  const head = `{"facility":${JSON.stringify(info)},"listings":[`;
  const spans = new Uint32Array(parts.length * 2);
  let at = Buffer.byteLength(head);
  parts.forEach((part, i) => {
    spans[i * 2] = at;
    at += Buffer.byteLength(part);
    spans[i * 2 + 1] = at;
    at += 1; // the comma
  });
  const bytes = Buffer.allocUnsafe(at - (parts.length > 0 ? 1 : 0) + LIST_TAIL.length);
  const hash = createHash('sha1');
  let written = bytes.write(head);
  for (let i = 0; i < parts.length; i += BUILD_STEP) {
    yield;
    const from = i === 0 ? 0 : written;
    for (let k = i; k < Math.min(i + BUILD_STEP, parts.length); k++) {
      if (k > 0) written += bytes.write(',', written);
      written += bytes.write(parts[k]!, written);
    }
    hash.update(bytes.subarray(from, written));
  }
  const from = parts.length === 0 ? 0 : written;
  written += bytes.write(LIST_TAIL, written);
  hash.update(bytes.subarray(from, written));
  return { list: { identity: variantOf(bytes, `"${hash.digest('base64url')}"`, null), coded: noCodings() }, spans };
}

const LIST_TAIL = ']}';

/** The views of a facility read with its revision, from its summaries and its list body, in the listings' order. */
function viewsOf(
  read: { data: FacilityData; revision: number },
  now: number,
  info: FacilityInfo,
  summaries: Summary[],
  { list, spans }: { list: ApiBody; spans: Uint32Array },
): FacilityViews {
  const { data, revision } = read;
  const area = Float64Array.from(summaries, (s) => s.area_m2);
  const features = Uint16Array.from(data.listings, (l) => bitsOf(l.features, FEATURES));
  const unitType = Uint8Array.from(data.listings, (l) =>
    l.unit_type === null ? 0 : UNIT_TYPES.indexOf(l.unit_type) + 1,
  );
  const until = nextPromotionChange(
    data.listings.flatMap((l) => l.promotions),
    now,
  );
  return {
    facility: data.facility,
    data,
    index: new Map(data.listings.map((l, i) => [l.id, i])),
    revision,
    at: now,
    until: until ?? Infinity,
    info: { fees: info.fees, protection: info.protection },
    list,
    gross: Float64Array.from(summaries, (s) => s.price.gross),
    spans,
    area,
    free: Uint8Array.from(summaries, (s) => (s.free_units > 0 ? 1 : 0)),
    features,
    unitType,
    featuresPresent: features.reduce((all, bits) => all | bits, 0),
    unitTypesPresent: unitType.reduce((all, t) => (t === 0 ? all : all | (1 << (t - 1))), 0),
    areas: Float64Array.from(new Set(area)).sort(),
    orders: {},
    details: new Array<ApiBody | undefined>(data.listings.length),
    madeDetails: [],
    filtered: new Map(),
    // The list with room for its codings, the summaries and listings it was made from, and the listings' text that
    // only Details show (not in the list, so not in its factor).
    size:
      bodySizeOf(list.identity.bytes.length) + Math.ceil(list.identity.bytes.length * HEAP_FACTOR) + detailTextOf(data),
  };
}

/** Characters of the listings' descriptions and photos, which only their Details show: held with the store's listings. */
function detailTextOf(data: FacilityData): number {
  let chars = 0;
  for (const l of data.listings) {
    chars += l.description.length;
    for (const p of l.photos) chars += p.url.length + p.caption.length;
  }
  return chars;
}
