// How the fixtures' listings are made: a Detail with the contract's defaults, priced by the shared pricing module as the
// server prices it (promotions active at an instant, schedule, move-in), and the facility object they belong to.
// Plain JavaScript without Node imports: the test runner's server, vitest and the browser tests all load it.

/** A shared TypeScript module: Vite compiles it in vitest and the browser; the test runner's plain Node needs tsx. */
async function shared(file) {
  const url = new URL(`../../../shared/${file}`, import.meta.url).href;
  try {
    return await import(/* @vite-ignore */ url);
  } catch {
    const api = 'tsx/esm/api'; // not a literal: the browser never resolves it
    return (await import(api)).tsImport(url, import.meta.url);
  }
}
const { rentalTermsOf } = await shared('rental-terms.ts');
const { netOf } = await shared('pricing.ts');
const shown = await shared('promotions.ts');

/** One period's price under a promotion alone: what each promotion of an answer carries. */
export const promotionPrice = shown.promotionPrice;

/** The list's facility object of most scenarios: its id and name, nothing else given. */
export const FACILITY = {
  id: 'wro-1',
  name: 'SafeBox Wroclaw Centrum',
  address: null,
  geo: null,
  contact: null,
  timezone: null,
  office_hours: null,
  access_hours: null,
  amenities: [],
  fees: [],
  protection: null,
};

/** A price object in złoty with 23% VAT. */
export const pln = (gross, period) => ({
  gross,
  net: netOf(gross, 23),
  vat_rate: 23,
  currency: 'PLN',
  ...(period && { period }),
});

/**
 * The listing's promotions active at `now` (each with its period price), its schedule and move-in cost, from its
 * regular price, deposit and promotions and the facility's fees and protection, as the server computes them.
 */
export function termsOf(detail, now) {
  const fees = detail.fees.map((f) => ({ ...f, amount_gross: f.amount.gross, vat_rate: f.amount.vat_rate }));
  const plans = detail.protection?.plans.map((p) => ({ ...p, price_gross: p.price.gross, ...p.price }));
  const protection = detail.protection && { required: detail.protection.required, plans };
  const input = {
    price: detail.price,
    deposit: detail.deposit.amount,
    promotions: detail.promotions,
    fees,
    protection,
  };
  return rentalTermsOf(input, now);
}

export const photo = (name, caption) => ({ url: `/img/${name}.svg`, caption, width: 400, height: 300 });

/** A Detail with every field, priced now: its promotions the active ones with their prices. */
export function listing(id, code, fields) {
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
    unit_type: null,
    features: [],
    promotions: [],
    floor: null,
    door: null,
    fees: [],
    protection: null,
    ...fields,
  };
  const [first] = detail.photos; // a Detail carries every Summary field, the cover photo included
  const priced = { ...detail, ...termsOf(detail, Date.now()) };
  return { ...priced, cover_photo: first ? { url: first.url, caption: first.caption } : null };
}
