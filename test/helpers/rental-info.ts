// The demo import file with every field a rental page shows beyond price, set here so tests do not depend on the demo.
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

/** The demo file with the rich fields on wro-1 and its first two listings; the other facilities as they are. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function richJson(promotions: unknown[] = [promotion()]): { facilities: any[] } {
  const data = demoJson();
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
