// Bench data: a database of N facilities x M listings (photos, pricing rules), imported and keyed through the real store.
import { join } from 'node:path';
import type { ImportFacility } from '../../server/schemas/import.ts';
import { ALWAYS_OPEN } from '../../server/schemas/hours.ts';
import { FEATURES, UNIT_TYPES } from '../../shared/listing.ts';
import { openDb } from '../../server/store/db.ts';
import { listingIdOf } from '../../server/domain/facility.ts';
import { applyImport } from '../../server/store/facilities.ts';
import { createKey, revokeKey } from '../../server/store/keys.ts';

export interface BenchDb {
  file: string;
  facilities: number;
  /** The number of listings of each facility, by index. */
  sizes: readonly number[];
  seconds: number;
}

const SIZES = [1, 1.5, 2, 3, 4.5, 6, 7.5, 10, 12, 15, 20, 25];
const CITIES = ['Wroclaw', 'Krakow', 'Gdansk', 'Poznan', 'Berlin', 'Leipzig', 'Praha', 'Brno'];

export const facilityIdOf = (i: number) => `fac-${String(i).padStart(5, '0')}`;
/** The code of listing j (from 0) of any facility. */
export const listingCodeOf = (j: number) => `U-${String(j + 1).padStart(3, '0')}`;

/** A description of 2,500 characters, different for each listing (issue 42's crawl of a facility with long fields). */
const longDescription = (j: number) =>
  `Unit ${j}. ${'Dry, heated and monitored unit with drive-up access, a personal PIN code and trolleys at the entrance. '.repeat(30)}`.slice(
    0,
    2500,
  );
/** A photo URL of about 1,500 characters (the import allows 2,048). */
const longUrl = (i: number, j: number, name: string) =>
  `https://img.example.com/${facilityIdOf(i)}/${j}/${'variant-1200x800-quality-85-'.repeat(52)}${name}.jpg`;

/** Facility i with `listings` listings; `long`: 2,500-character descriptions and photo URLs of ~1,500 characters. */
export function facilityOf(i: number, listings: number, long = false): ImportFacility {
  const url = (j: number, name: string) =>
    long ? longUrl(i, j, name) : `https://img.example.com/${facilityIdOf(i)}/${j}-${name}.jpg`;
  return {
    id: facilityIdOf(i),
    name: `SafeBox ${CITIES[i % CITIES.length]} ${i}`,
    currency: i % 3 === 0 ? 'EUR' : 'PLN',
    ...(i % 2 === 0 ? { rental_page_url: 'https://rent.example.com/{facility}/{code}' } : {}),
    // The fields a rental page shows beyond price, as a typical operator fills them in.
    address: {
      street: `ul. Testowa ${i}`,
      postal_code: '50-001',
      city: CITIES[i % CITIES.length]!,
      region: null,
      country: 'PL',
    },
    geo: { lat: 51.1, lng: 17.03 },
    timezone: 'Europe/Warsaw',
    office_hours: { ...ALWAYS_OPEN, mo: ['09:00-18:00'], sa: ['10:00-14:00'], su: [] },
    access_hours: ALWAYS_OPEN,
    amenities: ['cctv', 'gated', 'trolleys'],
    fees: [{ code: 'admin', title: 'Admin fee', amount_gross: 4900, vat_rate: 23, when: 'move_in' }],
    protection: {
      required: i % 2 === 0,
      plans: [{ code: 'basic', title: 'Basic cover', cover: 500000, price_gross: 1500, vat_rate: 23, period: 'P1M' }],
    },
    pricing_rules: [
      { min_occupancy: 0, adjust_pct: -5 },
      { min_occupancy: 0.5, adjust_pct: 0 },
      { min_occupancy: 0.8, adjust_pct: 10 },
      { min_occupancy: 0.95, adjust_pct: 20 },
    ],
    listings: Array.from({ length: listings }, (_, j) => {
      const area = SIZES[j % SIZES.length]!;
      const total = 5 + ((i + j) % 40);
      return {
        code: listingCodeOf(j),
        title: `Unit ${area} m², ${j % 3 === 0 ? 'ground floor, drive-up' : 'first floor, lift'}`,
        active: true,
        area_m2: area,
        dimensions: {
          width_m: 1 + (j % 4) * 0.5,
          depth_m: Math.round((area / (1 + (j % 4) * 0.5)) * 100) / 100 || 1,
          height_m: 2.4,
        },
        description: long
          ? longDescription(j)
          : 'Dry, heated and monitored unit. Access 6:00-22:00 with a personal PIN code; trolleys at the entrance.',
        price_gross: 4900 + area * 2100 + (j % 7) * 100,
        price_period: 'P1M',
        vat_rate: 23,
        dynamic_pricing: j % 2 === 0,
        total_units: total,
        free_units: (i * 7 + j * 3) % (total + 1),
        min_rental_period: 'P1M',
        notice_period: 'P14D',
        deposit: 10000,
        unit_type: UNIT_TYPES[j % UNIT_TYPES.length],
        features: [FEATURES[j % FEATURES.length]!, FEATURES[(j + 5) % FEATURES.length]!],
        promotions:
          j % 4 === 0
            ? [
                {
                  code: 'FIRST50',
                  title: '50% off your first month',
                  terms: null,
                  kind: 'percent' as const,
                  value: 50,
                  from_period: 1,
                  to_period: 1,
                  starts_at: null,
                  ends_at: null,
                  new_tenants_only: true,
                },
              ]
            : [],
        photos: [
          {
            url: url(j, 'front'),
            caption: 'Front',
            width: 1200,
            height: 800,
          },
          {
            url: url(j, 'inside'),
            caption: 'Inside',
            width: 1200,
            height: 800,
          },
        ],
      };
    }),
  };
}

/**
 * Writes DIR/<name>.db through the real import: `facilities` facilities of `listings` listings each, or of
 * listings[i] for facility i; those in `long` with long fields (facilityOf).
 */
export function generateDb(
  dir: string,
  name: string,
  facilities: number,
  listings: number | readonly number[],
  long: ReadonlySet<number> = new Set(),
): BenchDb {
  const started = performance.now();
  const sizes = typeof listings === 'number' ? Array.from({ length: facilities }, () => listings) : listings;
  if (sizes.length !== facilities) throw new Error(`${sizes.length} sizes for ${facilities} facilities`);
  const file = join(dir, `${name}.db`);
  const db = openDb(file);
  db.pragma('synchronous = OFF'); // a throwaway file: no fsync while generating
  try {
    // Typed as a validated import file (zod validation of 500k listings would dominate the time); imported in chunks
    // so that a 10,000-facility file never sits in memory at once.
    for (let from = 0; from < facilities; from += 500) {
      const chunk = Array.from({ length: Math.min(500, facilities - from) }, (_, k) =>
        facilityOf(from + k, sizes[from + k]!, long.has(from + k)),
      );
      applyImport(db, { facilities: chunk });
    }
    return { file, facilities, sizes, seconds: (performance.now() - started) / 1000 };
  } finally {
    db.close();
  }
}

/**
 * One key each for `count` facilities spread evenly over the database (key i belongs to facility facilityOfKey(i)),
 * with a rate limit too high to throttle. Issued while the servers run, as an operator would: that write leaves the
 * WAL with frames, the steady state of a server whose database is written now and then (its own last-use flushes do it
 * every 30 s). On a just-checkpointed file SQLite also stats the database file at each read transaction.
 */
export function issueKeys(db: BenchDb, count = Math.min(db.facilities, 100)): string[] {
  return createKeys(
    db,
    Array.from({ length: count }, (_, k) => ({ facility: facilityOfKey(db, k, count), rate_per_s: 1e9, burst: 1e9 })),
  ).map((k) => k.key);
}

export interface KeySpec {
  /** The facility's index. */
  facility: number;
  /** Omitted: the server's default limit (100/s, burst 500). */
  rate_per_s?: number;
  burst?: number;
  allowed_origins?: string[];
}

export interface IssuedKey {
  key: string;
  id: string;
  facility: number;
}

/** Keys as an operator makes them (`listings keys create`), written to the database while the servers may run. */
export function createKeys(db: BenchDb, specs: readonly KeySpec[]): IssuedKey[] {
  const conn = openDb(db.file, { migrate: false });
  try {
    return specs.map((spec) => {
      const { key, info } = createKey(conn, {
        facilityId: facilityIdOf(spec.facility),
        prefix: 'svc',
        label: 'bench',
        rate_per_s: spec.rate_per_s,
        burst: spec.burst,
        allowed_origins: spec.allowed_origins,
      });
      return { key, id: info.id, facility: spec.facility };
    });
  } finally {
    conn.close();
  }
}

/** `listings keys revoke` for each key id. */
export function revokeKeys(db: BenchDb, ids: readonly string[]): void {
  const conn = openDb(db.file, { migrate: false });
  try {
    for (const id of ids) revokeKey(conn, id);
  } finally {
    conn.close();
  }
}

/** "1,000 facilities x 50 listings", or the range of sizes when they vary. */
export function describeDb(db: BenchDb): string {
  const n = (x: number) => x.toLocaleString('en-US');
  const [min, max] = [Math.min(...db.sizes), Math.max(...db.sizes)];
  if (min === max) return `${n(db.facilities)} facilities x ${n(min)} listings`;
  const total = db.sizes.reduce((a, b) => a + b, 0);
  return `${n(db.facilities)} facilities of ${n(min)}-${n(max)} listings (${n(total)} in all)`;
}

/** The facility (index) key k of `count` belongs to. */
export const facilityOfKey = (db: BenchDb, k: number, count: number) => Math.floor((k * db.facilities) / count);

/** The id of listing j of facility i, as the API shows it. */
export const listingIdIn = (facility: number, j: number) => listingIdOf(facilityIdOf(facility), listingCodeOf(j));
