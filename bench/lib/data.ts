// Bench data: a database of N facilities x M listings (photos, pricing rules), imported and keyed through the real store.
import { join } from 'node:path';
import type { ImportFacility } from '../../server/schemas/import.ts';
import { openDb } from '../../server/store/db.ts';
import { listingIdOf } from '../../server/domain/facility.ts';
import { applyImport } from '../../server/store/facilities.ts';
import { createKey } from '../../server/store/keys.ts';

export interface BenchDb {
  file: string;
  facilities: number;
  listingsPerFacility: number;
  seconds: number;
}

const SIZES = [1, 1.5, 2, 3, 4.5, 6, 7.5, 10, 12, 15, 20, 25];
const CITIES = ['Wroclaw', 'Krakow', 'Gdansk', 'Poznan', 'Berlin', 'Leipzig', 'Praha', 'Brno'];

export const facilityIdOf = (i: number) => `fac-${String(i).padStart(5, '0')}`;

export function facilityOf(i: number, listings: number): ImportFacility {
  return {
    id: facilityIdOf(i),
    name: `SafeBox ${CITIES[i % CITIES.length]} ${i}`,
    currency: i % 3 === 0 ? 'EUR' : 'PLN',
    ...(i % 2 === 0 ? { rental_page_url: 'https://rent.example.com/{facility}/{code}' } : {}),
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
        code: `U-${String(j + 1).padStart(3, '0')}`,
        title: `Unit ${area} m², ${j % 3 === 0 ? 'ground floor, drive-up' : 'first floor, lift'}`,
        active: true,
        area_m2: area,
        dimensions: {
          width_m: 1 + (j % 4) * 0.5,
          depth_m: Math.round((area / (1 + (j % 4) * 0.5)) * 100) / 100 || 1,
          height_m: 2.4,
        },
        description:
          'Dry, heated and monitored unit. Access 6:00-22:00 with a personal PIN code; trolleys at the entrance.',
        price_gross: 4900 + area * 2100 + (j % 7) * 100,
        price_period: 'P1M',
        vat_rate: 23,
        dynamic_pricing: j % 2 === 0,
        total_units: total,
        free_units: (i * 7 + j * 3) % (total + 1),
        min_rental_period: 'P1M',
        notice_period: 'P14D',
        deposit: 10000,
        photos: [
          {
            url: `https://img.example.com/${facilityIdOf(i)}/${j}-front.jpg`,
            caption: 'Front',
            width: 1200,
            height: 800,
          },
          {
            url: `https://img.example.com/${facilityIdOf(i)}/${j}-inside.jpg`,
            caption: 'Inside',
            width: 1200,
            height: 800,
          },
        ],
      };
    }),
  };
}

/** Writes DIR/<name>.db: `facilities` facilities of `listingsPerFacility` listings each, through the real import. */
export function generateDb(dir: string, name: string, facilities: number, listingsPerFacility: number): BenchDb {
  const started = performance.now();
  const file = join(dir, `${name}.db`);
  const db = openDb(file);
  db.pragma('synchronous = OFF'); // a throwaway file: no fsync while generating
  try {
    // Typed as a validated import file (zod validation of 500k listings would dominate the time); imported in chunks
    // so that a 10,000-facility file never sits in memory at once.
    for (let from = 0; from < facilities; from += 500) {
      const chunk = Array.from({ length: Math.min(500, facilities - from) }, (_, k) =>
        facilityOf(from + k, listingsPerFacility),
      );
      applyImport(db, { facilities: chunk });
    }
    return { file, facilities, listingsPerFacility, seconds: (performance.now() - started) / 1000 };
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
  const conn = openDb(db.file, { migrate: false });
  try {
    return Array.from(
      { length: count },
      (_, k) =>
        createKey(conn, {
          facilityId: facilityIdOf(facilityOfKey(db, k, count)),
          prefix: 'svc',
          label: 'bench',
          rate_per_s: 1e9,
          burst: 1e9,
        }).key,
    );
  } finally {
    conn.close();
  }
}

/** The facility (index) key k of `count` belongs to. */
export const facilityOfKey = (db: BenchDb, k: number, count: number) => Math.floor((k * db.facilities) / count);

/** The id of listing j of facility i, as the API shows it. */
export const listingIdIn = (facility: number, j: number) =>
  listingIdOf(facilityIdOf(facility), `U-${String(j + 1).padStart(3, '0')}`);
