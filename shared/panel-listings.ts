// The operator panel's Listings tab as data: which listings a filter shows, in which order, and each row's text. One
// module for the table the panel's server renders and the one its script redraws, on the widget's own code.
import { formatArea, formatMoney, formatPercent } from './format.ts';
import type { Feature, Summary, UnitType } from './listing.ts';
import { FEATURE_LABELS, UNIT_TYPE_LABELS } from './rental-labels.ts';
import { adjustmentFor, occupancyOf, type PricingRule } from './pricing.ts';
import { isSortKey, sortListings, type SortKey } from './sort.ts';

/** What partners see beyond price, from the API's own Summary (rentalTermsOf): the tab's terms column. */
export interface ListingTerms {
  /** The active promotions: title and one period's promoted gross price. */
  promotions: { title: string; gross: number }[];
  features: Feature[];
  unit_type: UnitType | null;
  /** The total due at move-in, gross. */
  move_in: number;
}

/** What partners see of a listing, plus the units that make its occupancy; an inactive one partners do not see. */
export type PanelListing = Pick<
  Summary,
  'id' | 'code' | 'title' | 'area_m2' | 'price' | 'dynamic_pricing' | 'free_units'
> & { total_units: number; active: boolean; terms: ListingTerms | null };

export const LISTING_STATES = ['active', 'inactive'] as const;
export type ListingState = (typeof LISTING_STATES)[number];

export interface PanelListings {
  pricing_rules: PricingRule[];
  listings: PanelListing[];
}

/** The tab's query: the API's own parameter names, area bounds inclusive. */
export interface ListingFilter {
  min_area?: number;
  max_area?: number;
  sort?: SortKey;
  /** Only active or only inactive listings; none: both. */
  state?: ListingState;
}

/** An area bound as typed (`7.5`, `7,5`): 0 to 100000 m², the import's bound; anything else is no bound. */
function areaOf(text: string | null): number | undefined {
  const value = (text ?? '').trim().replace(',', '.');
  if (!/^\d{1,6}(\.\d{1,4})?$/.test(value)) return undefined;
  const area = Number(value);
  return area <= 100_000 ? area : undefined;
}

export function readListingFilter(params: URLSearchParams): ListingFilter {
  const sort = params.get('sort');
  const filter: ListingFilter = { min_area: areaOf(params.get('min_area')), max_area: areaOf(params.get('max_area')) };
  if (isSortKey(sort)) filter.sort = sort;
  const state = params.get('state');
  if ((LISTING_STATES as readonly (string | null)[]).includes(state)) filter.state = state as ListingState;
  return filter;
}

/** The filter as a query string (`?sort=price&min_area=5`), empty for none: the tab's own URL for it. */
export function filterQuery(filter: ListingFilter): string {
  const params = new URLSearchParams();
  for (const name of ['sort', 'min_area', 'max_area', 'state'] as const)
    if (filter[name] !== undefined) params.set(name, String(filter[name]));
  const query = params.toString();
  return query ? `?${query}` : '';
}

export function shownListings<T extends PanelListing>(listings: readonly T[], filter: ListingFilter): T[] {
  const { min_area: min, max_area: max, state } = filter;
  const kept = listings.filter(
    (l) =>
      (min === undefined || l.area_m2 >= min) &&
      (max === undefined || l.area_m2 <= max) &&
      (state === undefined || l.active === (state === 'active')),
  );
  return filter.sort ? sortListings(kept, filter.sort) : kept;
}

/** The sortable columns and their orders: a click on a column sorts by its first order, a second click by the next. */
export const SORT_COLUMNS = {
  code: ['code'],
  area: ['area', '-area'],
  price: ['price', '-price'],
} as const satisfies Record<string, readonly SortKey[]>;
export type SortColumn = keyof typeof SORT_COLUMNS;

export function nextSort(current: SortKey | undefined, column: SortColumn): SortKey {
  const orders: readonly SortKey[] = SORT_COLUMNS[column];
  const at = current === undefined ? -1 : orders.indexOf(current);
  return orders[(at + 1) % orders.length]!;
}

export function ariaSortOf(current: SortKey | undefined, column: SortColumn): 'ascending' | 'descending' | undefined {
  if (current === undefined || !(SORT_COLUMNS[column] as readonly SortKey[]).includes(current)) return undefined;
  return current.startsWith('-') ? 'descending' : 'ascending';
}

/** A row's formatted cells; `adjust` is the dynamic price's occupancy adjustment (`+10%`), null for a fixed price. */
export interface ListingRow {
  area: string;
  gross: string;
  net: string;
  adjust: string | null;
  /** Each active promotion as `title: price`. */
  promotions: string[];
  /** The unit type and features, as labels. */
  features: string[];
  /** The move-in total, or null for an inactive listing (partners see no terms of it). */
  moveIn: string | null;
}

export function rowOf(listing: PanelListing, rules: readonly PricingRule[], lang: string): ListingRow {
  const { gross, net, currency } = listing.price;
  const pct = adjustmentFor(occupancyOf(listing), rules);
  return {
    area: formatArea(listing.area_m2, lang),
    gross: formatMoney(gross, currency, lang),
    net: formatMoney(net, currency, lang),
    adjust: listing.dynamic_pricing ? `${pct > 0 ? '+' : ''}${formatPercent(pct, lang)}` : null,
    promotions: (listing.terms?.promotions ?? []).map((p) => `${p.title}: ${formatMoney(p.gross, currency, lang)}`),
    features: listing.terms
      ? [
          ...(listing.terms.unit_type ? [UNIT_TYPE_LABELS[listing.terms.unit_type]] : []),
          ...listing.terms.features.map((f) => FEATURE_LABELS[f]),
        ]
      : [],
    moveIn: listing.terms ? formatMoney(listing.terms.move_in, currency, lang) : null,
  };
}

/** `{shown} of {total}` with the numbers in. */
export function countText(template: string, shown: number, total: number): string {
  return template.replace('{shown}', String(shown)).replace('{total}', String(total));
}
