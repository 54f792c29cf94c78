// The `terms` scenario: what the rental page shows beyond price (issue 44): a facility with an address, hours,
// amenities, fees and protection, and listings with unit types, features, floors, doors and promotions, whose times are
// relative to the test runner's start (one running, one ending an hour after it, one starting two hours after it).
import { FACILITY, listing, photo, pln, promotionPrice, termsOf } from './listing.js';

/** What the rental page shows beyond price (issue 44): the facility the `terms` scenario's list answer carries. */
export const TERMS_FACILITY = {
  ...FACILITY,
  address: { street: 'ul. Legnicka 12', postal_code: '53-674', city: 'Wrocław', region: null, country: 'PL' },
  geo: { lat: 51.1129, lng: 17.0112 },
  contact: { email: 'wro@safebox.example', phone: '+48713000000' },
  timezone: 'Europe/Warsaw',
  office_hours: { ...week(['09:00-18:00']), sa: ['10:00-14:00'], su: [] },
  access_hours: week(['00:00-24:00']),
  amenities: ['cctv', 'gated', 'loading_bay', 'trolleys'],
  fees: [
    { code: 'admin', title: 'Admin fee', when: 'move_in', amount: pln(4900) },
    { code: 'cleaning', title: 'Cleaning', when: 'move_out', amount: pln(2500) },
  ],
  protection: {
    required: true,
    plans: [
      { code: 'plus', title: 'Plus cover', cover: { amount: 1500000, currency: 'PLN' }, price: pln(2900, 'P1M') },
      { code: 'basic', title: 'Basic cover', cover: { amount: 500000, currency: 'PLN' }, price: pln(1500, 'P1M') },
    ],
  },
};

function week(ranges) {
  return { mo: ranges, tu: ranges, we: ranges, th: ranges, fr: ranges, sa: ranges, su: ranges };
}

const HOUR = 60 * 60 * 1000;
/** An RFC 3339 instant as answers write it: UTC, whole seconds. */
const at = (ms) => new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');

/**
 * The `terms` listings' promotions, their times relative to `t0`: one running, one that ends an hour after t0, one
 * that starts two hours after it and runs a week.
 */
export function promotionsAround(t0) {
  const promotion = (fields) => ({ terms: null, new_tenants_only: true, starts_at: null, ends_at: null, ...fields });
  return {
    'M-07': [
      promotion({
        code: 'FIRST50',
        title: '50% off your first month',
        kind: 'percent',
        value: 50,
        from_period: 1,
        to_period: 1,
        terms: 'New customers, minimum stay 3 months.',
      }),
    ],
    'S-01': [
      promotion({
        code: 'HOUR20',
        title: '20% off, this hour only',
        kind: 'percent',
        value: 20,
        from_period: 1,
        to_period: 2,
        ends_at: at(t0 + HOUR),
      }),
    ],
    'L-12': [
      promotion({
        code: 'SPRING',
        title: 'First 3 months 1 zł',
        kind: 'fixed_price',
        value: 100,
        from_period: 1,
        to_period: 3,
        starts_at: at(t0 + 2 * HOUR),
        ends_at: at(t0 + 2 * HOUR + 7 * 24 * HOUR),
      }),
    ],
  };
}

/** The `terms` scenario: unit types, features, floors, a door, the facility's fees and protection, promotions. */
export function termsListings(promotions) {
  const facility = { fees: TERMS_FACILITY.fees, protection: TERMS_FACILITY.protection };
  return [
    listing('d1', 'M-07', {
      ...facility,
      title: 'Medium unit, ground floor',
      unit_type: 'medium',
      features: ['drive_up', 'ground_floor', 'power', 'lighting', 'alarmed'],
      floor: 0,
      door: { width_m: 2, height_m: 2.2 },
      promotions: promotions['M-07'],
      photos: [photo('front', 'Front')],
    }),
    listing('d2', 'S-01', {
      ...facility,
      title: 'Small locker',
      area_m2: 1.5,
      price: pln(9900, 'P1M'),
      unit_type: 'locker',
      features: ['indoor', 'climate_controlled'],
      floor: 1,
      promotions: promotions['S-01'],
    }),
    listing('d3', 'L-12', {
      ...facility,
      title: 'Large drive-up garage',
      area_m2: 15,
      price: pln(59900, 'P1M'),
      unit_type: 'large',
      features: ['roll_up_door'],
      floor: -1,
      door: { width_m: 2.5, height_m: 2.4 },
      promotions: promotions['L-12'],
    }),
  ];
}

/** The test runner's start: the `terms` promotions' times are relative to it. */
export const T0 = Date.now();

/**
 * The `terms` listings as a snapshot generated at `generatedAt` carries them: every promotion with its times and its
 * period price, the schedule and move-in as of then.
 */
export function snapshotTermsListings(generatedAt) {
  const all = promotionsAround(T0);
  return termsListings(all).map((l) => {
    const promotions = all[l.code].map((p) => ({ ...p, price: promotionPrice(p, l.price) }));
    const { schedule, move_in } = termsOf({ ...l, promotions }, generatedAt);
    return { ...l, promotions, schedule, move_in };
  });
}

/** The `terms` listings as the live API answers them now. */
export const terms = termsListings(promotionsAround(T0));

/** The free-text fields an operator writes: names, titles, terms, captions and the address's lines. */
export const FREE_TEXT = new Set([
  'name',
  'title',
  'description',
  'terms',
  'caption',
  'street',
  'postal_code',
  'city',
  'region',
]);

/** `value` with a RIGHT-TO-LEFT OVERRIDE (U+202E) in front of every free-text field. */
function overridden(value, key = '') {
  if (typeof value === 'string') return FREE_TEXT.has(key) ? `\u202e${value}` : value;
  if (Array.isArray(value)) return value.map((v) => overridden(v));
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, overridden(v, k)]));
  return value;
}

/** The `terms-rlo` scenario: the `terms` facility and listings, every value the operator wrote overridden. */
export const RLO_TERMS_FACILITY = overridden({
  ...TERMS_FACILITY,
  address: { ...TERMS_FACILITY.address, region: 'Dolny Śląsk' },
});
export const rloTerms = overridden(terms);
