// Bench data: facilities of N listings (photos, pricing rules), imported and keyed through the real store.
import { join } from 'node:path';
import type { ImportFacility } from '../../server/schemas/import.ts';
import { ALWAYS_OPEN } from '../../server/schemas/hours.ts';
import { FEATURES, UNIT_TYPES } from '../../shared/listing.ts';
import { openDb } from '../../server/store/db.ts';
import { listingIdOf } from '../../server/domain/facility.ts';
import { applyImport } from '../../server/store/facilities.ts';
import { createKey, revokeKey, type KeyLimits } from '../../server/store/keys.ts';

/** A generated database: `sizes` holds each facility's number of listings, by index. */
export type BenchDb = { file: string; facilities: number; sizes: readonly number[]; seconds: number };

const SIZES = [1, 1.5, 2, 3, 4.5, 6, 7.5, 10, 12, 15, 20, 25];
const CITIES = ['Wroclaw', 'Krakow', 'Gdansk', 'Poznan', 'Berlin', 'Leipzig', 'Praha', 'Brno'];

export const facilityIdOf = (i: number) => `fac-${String(i).padStart(5, '0')}`;
/** The code of listing j (from 0) of any facility. */
export const listingCodeOf = (j: number) => `U-${String(j + 1).padStart(3, '0')}`;

const DESCRIPTION =
  'Dry, heated and monitored unit with drive-up access, a personal PIN code and trolleys at the entrance. ';
const PROMOTION = {
  code: 'FIRST50',
  title: '50% off your first month',
  terms: null,
  kind: 'percent' as const,
  value: 50,
};
const PROMOTIONS = [
  { ...PROMOTION, from_period: 1, to_period: 1, starts_at: null, ends_at: null, new_tenants_only: true },
];

/** Facility i with `listings` listings; `long` (the abuse scenario's crawl): descriptions of 2,500 characters and
 * photo URLs of about 1,500 (the import allows 2,048). */
export function facilityOf(i: number, listings: number, long = false): ImportFacility {
  const path = (j: number) => `${facilityIdOf(i)}/${j}/${long ? 'variant-1200x800-quality-85-'.repeat(52) : ''}`;
  const photo = (j: number, name: string) => ({ url: `https://img.example.com/${path(j)}${name}.jpg`, caption: name });
  const city = CITIES[i % CITIES.length]!;
  return {
    id: facilityIdOf(i),
    name: `SafeBox ${city} ${i}`,
    currency: i % 3 === 0 ? 'EUR' : 'PLN',
    ...(i % 2 === 0 ? { rental_page_url: 'https://rent.example.com/{facility}/{code}' } : {}),
    // The fields a rental page shows beyond price, as a typical operator fills them in.
    address: { street: `ul. Testowa ${i}`, postal_code: '50-001', city, region: null, country: 'PL' },
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
    pricing_rules: [-5, 0, 10, 20].map((adjust_pct, k) => ({ min_occupancy: [0, 0.5, 0.8, 0.95][k]!, adjust_pct })),
    listings: Array.from({ length: listings }, (_, j) => {
      const [area, width, total] = [SIZES[j % SIZES.length]!, 1 + (j % 4) * 0.5, 5 + ((i + j) % 40)];
      return {
        code: listingCodeOf(j),
        title: `Unit ${area} m², ${j % 3 === 0 ? 'ground floor, drive-up' : 'first floor, lift'}`,
        active: true,
        area_m2: area,
        dimensions: { width_m: width, depth_m: Math.round((area / width) * 100) / 100 || 1, height_m: 2.4 },
        description: long ? `Unit ${j}. ${DESCRIPTION.repeat(30)}`.slice(0, 2500) : DESCRIPTION,
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
        promotions: j % 4 === 0 ? PROMOTIONS : [],
        photos: [photo(j, 'Front'), photo(j, 'Inside')].map((p) => ({ ...p, width: 1200, height: 800 })),
      };
    }),
  };
}

/** Writes DIR/<name>.db through the real import: facility i with sizes[i] listings, long fields in facility `long`. */
export function generateDb(dir: string, name: string, sizes: readonly number[], long = -1): BenchDb {
  const started = performance.now();
  const file = join(dir, `${name}.db`);
  const db = openDb(file);
  db.pragma('synchronous = OFF'); // a throwaway file: no fsync while generating
  try {
    // Typed as a validated import (zod over 500k listings would dominate the time), in chunks held one at a time.
    for (let from = 0; from < sizes.length; from += 500) {
      const chunk = sizes.slice(from, from + 500).map((n, k) => facilityOf(from + k, n, from + k === long));
      applyImport(db, { facilities: chunk });
    }
    return { file, facilities: sizes.length, sizes, seconds: (performance.now() - started) / 1000 };
  } finally {
    db.close();
  }
}

/**
 * One key each for `count` facilities spread evenly over the database, with a rate limit too high to throttle. Issued
 * while the servers run, as an operator would: the write leaves the WAL with frames, a written server's steady state.
 */
export function issueKeys(db: BenchDb, count = Math.min(db.facilities, 100)): string[] {
  const facility = (k: number) => Math.floor((k * db.facilities) / count);
  const specs = Array.from({ length: count }, (_, k) => ({ facility: facility(k), rate_per_s: 1e9, burst: 1e9 }));
  return createKeys(db, specs).map((k) => k.key);
}

/** Keys as `listings keys create` makes them (rate_per_s and burst omitted: the default, 100/s, burst 500). */
export function createKeys(db: BenchDb, specs: readonly (KeyLimits & { facility: number })[]) {
  const conn = openDb(db.file, { migrate: false });
  try {
    return specs.map(({ facility, ...spec }) => {
      const { key, info } = createKey(conn, {
        ...spec,
        facilityId: facilityIdOf(facility),
        prefix: 'svc',
        label: 'bench',
      });
      return { key, id: info.id, facility, ref: info.ref };
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

/** The id of listing j of facility i, as the API shows it. */
export const listingIdIn = (facility: number, j: number) => listingIdOf(facilityIdOf(facility), listingCodeOf(j));
