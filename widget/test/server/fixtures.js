// Listings the fake API and the signed snapshots serve to the browser tests: Detail objects per the public contract.
// URLs are written relative to the test server and made absolute (as the real API's are) when served.

const photo = (name, caption) => ({ url: `/img/${name}.svg`, caption, width: 400, height: 300 });

function listing(id, code, fields) {
  const detail = {
    id: `lst_${id.padStart(20, '0')}`,
    code,
    title: `Unit ${code}`,
    area_m2: 7.5,
    price: { gross: 32900, net: 26748, vat_rate: 23, currency: 'PLN', period: 'P1M' },
    dynamic_pricing: true,
    free_units: 3,
    rent_url: `/rent/wro-1/${code}`,
    cover_photo: null,
    dimensions: { width_m: 2.5, depth_m: 3, height_m: 2.4 },
    description: 'Drive-up access.\nOpen 6:00–22:00.',
    min_rental_period: 'P1M',
    notice_period: 'P14D',
    deposit: { amount: 29900, currency: 'PLN' },
    photos: [],
    ...fields,
  };
  const [first] = detail.photos; // a Detail carries every Summary field, the cover photo included
  return { ...detail, cover_photo: first ? { url: first.url, caption: first.caption } : null };
}

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
  listing(`m${i}`, `U-${String(i + 1).padStart(2, '0')}`, { photos: [photo(i % 2 ? 'inside' : 'front', `Photo ${i + 1}`)] }),
);

export const fixtures = { basic, eur, hostile, many, empty: [] };

/** The Summary view of a Detail: what the list endpoint answers. */
export function summaryOf(detail) {
  const { id, code, title, area_m2, price, dynamic_pricing, free_units, rent_url, cover_photo } = detail;
  return { id, code, title, area_m2, price, dynamic_pricing, free_units, rent_url, cover_photo };
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
