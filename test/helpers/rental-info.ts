// The demo import file with every field a rental page shows beyond price, set here so tests do not depend on the demo.
import type { FacilityInfo } from '../../shared/listing.ts';
import { parseImport } from '../../server/domain/import.ts';
import { ListingsError } from '../../server/errors.ts';
import { demoJson } from './fixture.ts';

export const RICH_FACILITY = {
  address: { street: 'ul. Legnicka 12', postal_code: '53-674', city: 'Wrocław', country: 'PL' },
  geo: { lat: 51.1129, lng: 17.0112 },
  timezone: 'Europe/Warsaw',
  office_hours: {
    mo: ['09:00-18:00'],
    tu: ['09:00-18:00'],
    we: ['09:00-18:00'],
    th: ['09:00-18:00'],
    fr: ['13:00-18:00', '08:00-12:00'],
    sa: ['10:00-14:00'],
    su: [],
  },
  access_hours: '24/7',
  amenities: ['cctv', 'gated', 'loading_bay', 'trolleys'],
  fees: [
    { code: 'admin', title: 'Admin fee', amount_gross: 4900, vat_rate: 23, when: 'move_in' },
    { code: 'clean', title: 'Cleaning', amount_gross: 2000, vat_rate: 23, when: 'move_out' },
  ],
  protection: {
    required: true,
    plans: [
      { code: 'basic', title: 'Basic cover', cover: 500000, price_gross: 1500, vat_rate: 23, period: 'P1M' },
      { code: 'plus', title: 'Plus cover', cover: 1500000, price_gross: 3000, vat_rate: 23 },
    ],
  },
};

/** A promotion of the contract's example, with its window given by the caller. */
export function promotion(over: Record<string, unknown> = {}) {
  return {
    code: 'FIRST50',
    title: '50% off your first month',
    terms: 'New customers, minimum stay 3 months.',
    kind: 'percent',
    value: 50,
    from_period: 1,
    to_period: 1,
    starts_at: null,
    ends_at: '2026-12-31T23:00:00Z',
    new_tenants_only: true,
    ...over,
  };
}

const FACILITY_FIELDS = [...Object.keys(RICH_FACILITY), 'contact', 'booking_url'];
const LISTING_FIELDS = ['unit_type', 'features', 'floor', 'door', 'promotions'];

/** The demo file without any field beyond price (whatever the demo data carries), as a partner of an older file has it. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function plainJson(): { facilities: any[] } {
  const data = demoJson();
  for (const f of data.facilities) {
    for (const field of FACILITY_FIELDS) delete f[field];
    for (const l of f.listings) for (const field of LISTING_FIELDS) delete l[field];
  }
  return data;
}

/** The plain demo file with the rich fields on wro-1 and its first two listings; nothing beyond price elsewhere. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function richJson(promotions: unknown[] = [promotion()]): { facilities: any[] } {
  const data = plainJson();
  const wro = data.facilities.find((f) => f.id === 'wro-1');
  Object.assign(wro, structuredClone(RICH_FACILITY));
  Object.assign(wro.listings[0], {
    unit_type: 'medium',
    features: ['drive_up', 'ground_floor'],
    floor: 0,
    door: { width_m: 2, height_m: 2.2 },
    promotions,
  });
  Object.assign(wro.listings[1], { unit_type: 'small', features: ['indoor', 'heated'], floor: 2 });
  return data;
}

/** A facility object of answers and snapshots with only its id and name given: every other field null or []. */
export function bareFacility(id: string, name: string): FacilityInfo {
  const none = { address: null, geo: null, contact: null, timezone: null, office_hours: null, access_hours: null };
  return { id, name, ...none, amenities: [], fees: [], protection: null };
}

/** A change to the rich file's first facility (wro-1) that the import should refuse. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Spoil = (wro: any) => void;

/** The problem lines, as parseImport words them, of the rich file spoiled by `spoil`; [] when it is accepted. */
export function problemsOf(spoil: Spoil): string[] {
  const data = richJson();
  spoil(data.facilities[0]);
  try {
    parseImport(JSON.stringify(data), 'f.json');
    return [];
  } catch (err) {
    if (!(err instanceof ListingsError)) throw err;
    return [...(err.details ?? [])];
  }
}
