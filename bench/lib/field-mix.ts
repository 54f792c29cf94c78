// The field mix's world (facilities of 20-200 listings and a large one, keys as partners hold them, some revoked) and
// its deterministic rotation of requests in fixed proportions, with the headers a browser or TLS proxy adds.
import { createKeys, facilityIdOf, generateDb, listingCodeOf, listingIdIn, revokeKeys, type BenchDb } from './data.ts';
import type { BenchRequest } from './load.ts';
import { keyOf } from '../ceiling.ts';
import { alphanumeric, intIn, pick, seeded, type Random } from './random.ts';

export const FIELD_FULL = {
  /** Ordinary facilities, of 20-200 listings each; the large one comes next, then the unkeyed large ones. */
  facilities: 1000,
  largeListings: 10_000,
  /** Unkeyed large facilities (abuse only): all but the last are rotated through, the last (long fields) crawled. */
  unkeyedLarge: 3,
  /** Facilities with keys, the large one among them, each with keysPerFacility live keys; `revoked` more revoked. */
  keyedFacilities: 50,
  keysPerFacility: 4,
  revoked: 20,
  /** Requests in the rotation, and client addresses the TLS proxy in front forwards (X-Forwarded-For). */
  rotation: 50_000,
  addresses: 10_000,
};
export type FieldSettings = typeof FIELD_FULL;

/** CI: a smaller database and rotation, the same large facility and keys per facility. */
export const FIELD_QUICK: FieldSettings = {
  ...FIELD_FULL,
  ...{ facilities: 100, keyedFacilities: 20, revoked: 8, rotation: 10_000, addresses: 2_000 },
};

/** Where a key is used: a partner's server (no Origin), or a widget on a partner's page (open or origin-restricted). */
type KeyRole = 'server' | 'widget' | 'widget, origin-restricted';
const ROLES: readonly KeyRole[] = ['server', 'server', 'widget', 'widget, origin-restricted'];
type FieldKey = { key: string; id: string; ref: string; facility: number; role: KeyRole; origin: string | undefined };

export interface FieldWorld {
  db: BenchDb;
  large: number; // the large facility's index
  /** The large facilities an anonymous client rotates through, and the one crawled. */
  rotated: readonly number[];
  crawled: number;
  keyed: readonly number[];
  keys: readonly FieldKey[];
  revoked: readonly FieldKey[];
}

/** Sizes 20-200 from a seeded generator, then the large facilities; the abuse scenario's last has long fields. */
export function generateFieldDb(dir: string, s: FieldSettings): BenchDb {
  const rand = seeded(24);
  const sizes = [...Array.from({ length: s.facilities }, () => intIn(rand, 20, 200)), s.largeListings];
  sizes.push(...Array(s.unkeyedLarge).fill(s.largeListings));
  return s.unkeyedLarge > 0 ? generateDb(dir, 'abuse', sizes, sizes.length - 1) : generateDb(dir, 'field', sizes);
}

/** Issues the mix's keys (limits far above the load), revokes `s.revoked` more; run while ours is up (issueKeys). */
export function issueFieldKeys(db: BenchDb, s: FieldSettings): FieldWorld {
  // The large facility, and others spread evenly over the ordinary ones.
  const others = s.keyedFacilities - 1;
  const keyed = [s.facilities, ...Array.from({ length: others }, (_, k) => Math.floor((k * s.facilities) / others))];
  const specs = keyed.flatMap((facility) =>
    Array.from({ length: s.keysPerFacility }, (_, r) => ({ facility, role: ROLES[r % ROLES.length]!, r })),
  );
  const toRevoke = Array.from({ length: s.revoked }, (_, k) => ({
    facility: keyed[k % keyed.length]!,
    role: 'widget' as KeyRole,
    r: s.keysPerFacility + Math.floor(k / keyed.length),
  }));
  const all = [...specs, ...toRevoke];
  const originOf = (facility: number, r: number) => `https://partner-${facility}-${r}.example`;
  const restricted = (role: KeyRole, origin: string) => (role === 'widget, origin-restricted' ? [origin] : undefined);
  const issued = createKeys(
    db,
    all.map(({ facility, role, r }) => ({
      facility,
      rate_per_s: 1e9,
      burst: 1e9,
      allowed_origins: restricted(role, originOf(facility, r)),
    })),
  );
  const keys = issued.map((k, i) => {
    const { role, r } = all[i]!;
    return { ...k, role, origin: role === 'server' ? undefined : originOf(k.facility, r) };
  });
  const revoked = keys.slice(specs.length);
  revokeKeys(
    db,
    revoked.map((k) => k.id),
  );
  const rotated = Array.from({ length: s.unkeyedLarge }, (_, k) => s.facilities + k);
  const crawled = s.facilities + s.unkeyedLarge;
  return { db, large: s.facilities, rotated, crawled, keyed, keys: keys.slice(0, specs.length), revoked };
}

/** The kinds of request in the mix, with the status each should get. */
const SERVED = {
  list: 200,
  detail: 200,
  'list 304': 304,
  'detail 304': 304,
  'filtered list': 200,
  'rental page': 200,
  'rent click': 302,
};
const REFUSED = { 'rental page, unknown': 404, 'revoked key': 401, 'unknown key': 401, 'malformed key': 401 };
export const KINDS: Record<Kind, number> = { ...SERVED, ...REFUSED };
export type Kind = keyof typeof SERVED | keyof typeof REFUSED;

export interface MixRequest extends BenchRequest {
  kind: Kind;
  /** For a 304: the same request without If-None-Match, whose ETag goes into it once ours has answered it. */
  revalidates?: BenchRequest;
}

/** A client address from the proxy's pool: 198.18.0.0/15 is the range set aside for benchmarks (RFC 2544). */
export const poolAddress = (i: number) => `198.${18 + (i >> 16)}.${(i >> 8) & 255}.${i & 255}`;
/** A partner's server, polling with its own key. */
const serverAddress = (k: number) => `198.19.250.${k % 250}`;

const SORTS = ['price', '-price', 'area', '-area', 'code'] as const;

/** An area as a visitor types or a slider sends it: mostly one decimal (3.7), some whole, some two decimals. */
function areaValue(rand: Random, from: number, to: number): string {
  const x = from + rand() * (to - from);
  const r = rand();
  return r < 0.7 ? x.toFixed(1) : r < 0.85 ? String(Math.round(x)) : x.toFixed(2);
}

/** One to four filter parameters with random values, always valid (min_area <= max_area). */
function filterQuery(rand: Random): string {
  const params: string[] = [];
  while (params.length === 0) {
    const min = rand() < 0.5 ? areaValue(rand, 0.5, 20) : undefined;
    if (min !== undefined) params.push(`min_area=${min}`);
    if (rand() < 0.5) params.push(`max_area=${areaValue(rand, Number(min ?? 0) + 0.5, Number(min ?? 0) + 30)}`);
    if (rand() < 0.3) params.push('available=true');
    if (rand() < 0.6) params.push(`sort=${pick(rand, SORTS)}`);
  }
  return `?${params.join('&')}`;
}

/**
 * The rotation: 80 % list/detail/304 over the live keys (30 % list, 30 % detail, 20 % If-None-Match, half lists and
 * half details), 10 % filtered lists, 5 % rental pages and rent clicks (no key; 85 % listings of keyed facilities,
 * a third of them partners' /go/ clicks with a key's ref from a browser's User-Agent, the rest unknown codes and facilities), 5 % refused keys (40 % revoked, 40 % unknown, 20 % malformed). Keys are drawn uniformly, so
 * each facility's share is its share of keys; details and rental pages draw the listing uniformly. Every request
 * carries `Accept-Encoding: br, gzip` (a page or a click also a browser's Accept-Language) and the X-Forwarded-For a TLS proxy adds (a partner's server address for server
 * keys, a pool address for browsers); a widget's requests carry its page's Origin.
 */
/** A browser's User-Agent: clicks from it are counted, as a renter's are. */
const BROWSER_UA = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0 Safari/537.36';
/** Browsers' Accept-Language, one per facility: its renters share a language, and the page is kept in each one. */
const BROWSER_LANGUAGES = ['pl-PL,pl;q=0.9,en-US;q=0.8,en;q=0.7', 'de-DE,de;q=0.9,en;q=0.8', 'en-GB,en;q=0.9'];

export function fieldRotation(world: FieldWorld, s: FieldSettings, seed = 2024): MixRequest[] {
  const rand = seeded(seed);
  const { keys, keyed, db } = world;
  const browser = () => poolAddress(intIn(rand, 0, s.addresses - 1));
  const headersOf = (k: FieldKey, i: number): Record<string, string> => ({
    'x-api-key': k.key,
    'accept-encoding': 'br, gzip',
    'x-forwarded-for': k.role === 'server' ? serverAddress(i) : browser(),
    ...(k.origin ? { origin: k.origin } : {}),
  });
  const detailPath = (facility: number) =>
    `/external/listings/${listingIdIn(facility, intIn(rand, 0, db.sizes[facility]! - 1))}`;
  const out: MixRequest[] = [];
  for (let n = 0; n < s.rotation; n++) {
    const r = rand();
    if (r < 0.8) {
      const i = intIn(rand, 0, keys.length - 1);
      const k = keys[i]!;
      const kind: Kind = r < 0.3 ? 'list' : r < 0.6 ? 'detail' : r < 0.7 ? 'list 304' : 'detail 304';
      const path = kind.startsWith('list') ? '/external/listings' : detailPath(k.facility);
      const headers = headersOf(k, i);
      const request: MixRequest = { kind, path, headers };
      if (kind.endsWith('304')) request.revalidates = { path, headers: { ...headers } };
      out.push(request);
    } else if (r < 0.9) {
      const i = intIn(rand, 0, keys.length - 1);
      out.push({
        kind: 'filtered list',
        path: `/external/listings${filterQuery(rand)}`,
        headers: headersOf(keys[i]!, i),
      });
    } else if (r < 0.95) {
      const facility = pick(rand, keyed);
      const x = rand();
      const [id, code] =
        x < 0.85
          ? [facilityIdOf(facility), listingCodeOf(intIn(rand, 0, db.sizes[facility]! - 1))]
          : x < 0.95
            ? [facilityIdOf(facility), listingCodeOf(db.sizes[facility]! + intIn(rand, 0, 100_000))]
            : [facilityIdOf(90_000 + intIn(rand, 0, 9_999)), listingCodeOf(intIn(rand, 0, 199))];
      const headers = {
        'accept-encoding': 'br, gzip',
        'accept-language': BROWSER_LANGUAGES[facility % BROWSER_LANGUAGES.length]!,
        'x-forwarded-for': browser(),
      };
      if (x < 0.28) {
        const { ref } = pick(
          rand,
          keys.filter((k) => k.facility === facility),
        );
        const path = `/go/${id}/${encodeURIComponent(code)}?ref=${ref}`;
        out.push({ kind: 'rent click', path, headers: { ...headers, 'user-agent': BROWSER_UA } });
      } else
        out.push({
          kind: x < 0.85 ? 'rental page' : 'rental page, unknown',
          path: `/rent/${id}/${encodeURIComponent(code)}`,
          headers,
        });
    } else {
      const x = rand();
      const facility = pick(rand, keyed);
      const key =
        x < 0.4
          ? pick(rand, world.revoked).key
          : x < 0.8
            ? `svc_live_${alphanumeric(rand, 32)}`
            : pick(rand, [
                `svc_live_${alphanumeric(rand, 20)}`,
                `svc_test_${alphanumeric(rand, 32)}`,
                alphanumeric(rand, 40),
              ]);
      out.push({
        kind: x < 0.4 ? 'revoked key' : x < 0.8 ? 'unknown key' : 'malformed key',
        path: rand() < 0.7 ? '/external/listings' : detailPath(facility),
        headers: {
          'x-api-key': key,
          'accept-encoding': 'br, gzip',
          'x-forwarded-for': browser(),
          ...(rand() < 0.5 ? { origin: `https://partner-${facility}-2.example` } : {}),
        },
      });
    }
  }
  return out;
}

/** What chose ours' answer to a request, as the ceiling keys it. */
export const answerKeyOf = (r: BenchRequest) => keyOf('GET', r.path, r.headers);
