// Listings the fake API and the signed snapshots serve to the browser tests: Detail objects per the public contract
// (test/widget-fixtures.test.ts parses every one with the server's zod schemas, so a contract change breaks them).
// URLs are written relative to the test server and made absolute (as the real API's are) when served.
// Plain JavaScript without Node imports: the test runner's server, vitest and the browser tests all load it.
import { FACILITY, listing, photo } from './listing.js';
import { rloTerms, terms } from './terms.js';

export { FACILITY };
export { RLO_TERMS_FACILITY, snapshotTermsListings, T0, TERMS_FACILITY } from './terms.js';

/** The key the fake API accepts. */
export const API_KEY = 'svc_live_Widget0Tests0Key0000000000000';

const basic = [
  listing('a1', 'M-07', {
    title: 'Medium unit, ground floor',
    photos: [photo('front', 'Front'), photo('inside', 'Inside'), photo('corridor', 'Corridor')],
  }),
  listing('b2', 'S-01', {
    title: 'Small locker',
    area_m2: 1.5,
    price: { gross: 9900, net: 8049, vat_rate: 23, currency: 'PLN', period: 'P1M' },
    free_units: 1,
    photos: [photo('locker', 'Locker')],
    min_rental_period: 'P1W',
    notice_period: 'P7D',
  }),
  listing('c3', 'L-12', {
    title: 'Large drive-up garage',
    area_m2: 15,
    price: { gross: 59900, net: 48699, vat_rate: 23, currency: 'PLN', period: 'P1M' },
    free_units: 0,
  }),
];

const eur = [
  listing('d4', 'B-02', {
    title: 'Lagerbox B-02',
    area_m2: 4.25,
    price: { gross: 12950, net: 10882, vat_rate: 19, currency: 'EUR', period: 'P1M' },
    deposit: { amount: 20000, currency: 'EUR' },
    free_units: 5,
    photos: [photo('front', 'Vorderseite')],
  }),
];

const attack = 'javascript:window.__pwned=true';
const hostile = [
  listing('e5', 'X-01', {
    title: '<img src=x onerror="window.__pwned=true">',
    description: '<script>window.__pwned=true</script><b>bold?</b>',
    rent_url: attack,
    photos: [{ url: attack, caption: '<img src=x onerror="window.__pwned=true">', width: 1, height: 1 }],
  }),
  listing('f6', 'X-02', {
    title: 'Data URLs',
    rent_url: 'data:text/html,<script>window.__pwned=true</script>',
    photos: [{ url: ' JaVaScRiPt:window.__pwned=true', caption: 'Mixed case', width: null, height: null }],
  }),
];

/** A long list: most of its cards (and their photos) start far below the fold. */
const many = Array.from({ length: 60 }, (_, i) =>
  listing((0x100 + i).toString(16), `U-${String(i + 1).padStart(2, '0')}`, {
    photos: [photo(i % 2 ? 'inside' : 'front', `Photo ${i + 1}`)],
  }),
);

/** Codes whose natural order (S-2 before S-10) is not their order as text, a tie (S-2, S-02) and mixed case. */
const codes = ['S-10', 'S-2', 'A-1', 's-3', 'S-02', 'S-1'].map((code, i) => listing(`c0${i}`, code, {}));

/** A rent_url relative to the data's own URL (the API's are absolute; a hand-made snapshot's may not be). */
const relative = [listing('a7', 'R-01', { title: 'Relative rent URL', rent_url: 'rent/R-01' })];

export const fixtures = {
  basic,
  eur,
  hostile,
  many,
  codes,
  relative,
  terms,
  'terms-rlo': rloTerms,
  empty: [],
  'terms-empty': [],
};

/** The list endpoint's body. */
/** The ref of the 'partner' scenario's key. */
export const PARTNER_REF = 'odra-movers';

export function listResponseOf(listings, facility = FACILITY) {
  return { facility, listings: listings.map(summaryOf) };
}

/** An RFC 9457 problem body as the API answers it (the fake API's own wording: tests assert codes, not prose). */
export function problemOf(status, code) {
  return { type: `https://example.test/problems/${code}`, title: code, status, detail: code, code };
}

/** The Summary view of a Detail: what the list endpoint answers. */
export function summaryOf(detail) {
  const { id, code, title, area_m2, price, dynamic_pricing, free_units, rent_url, cover_photo } = detail;
  const { unit_type, features, promotions, schedule, move_in } = detail;
  const summary = { id, code, title, area_m2, price, dynamic_pricing, free_units, rent_url, cover_photo };
  return { ...summary, unit_type, features, promotions, schedule, move_in };
}

/** A deep copy with relative URLs made absolute against the server's origin, as the real API answers. */
export function absolutize(detail, origin) {
  const abs = (url) => (url.startsWith('/') ? new URL(url, origin).href : url);
  const cover = detail.cover_photo;
  return {
    ...detail,
    rent_url: abs(detail.rent_url),
    cover_photo: cover ? { ...cover, url: abs(cover.url) } : null,
    photos: detail.photos.map((p) => ({ ...p, url: abs(p.url) })),
  };
}
