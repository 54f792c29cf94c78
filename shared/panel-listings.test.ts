// The panel's Listings tab as data: the filter read from a query, the rows it keeps and orders, each row's text.
import { describe, expect, it } from 'vitest';
import {
  ariaSortOf,
  filterQuery,
  nextSort,
  readListingFilter,
  rowOf,
  shownListings,
  type PanelListing,
} from './panel-listings.ts';

function listing(code: string, area: number, gross: number, extra: Partial<PanelListing> = {}): PanelListing {
  return {
    id: `lst_${code}`,
    code,
    title: code,
    area_m2: area,
    price: { gross, net: Math.round(gross / 1.23), vat_rate: 23, currency: 'PLN', period: 'P1M' },
    dynamic_pricing: false,
    free_units: 1,
    total_units: 10,
    active: true,
    terms: null,
    ...extra,
  };
}

describe('readListingFilter', () => {
  it("reads the API's parameter names, and no bound from a value that is not an area", () => {
    expect(readListingFilter(new URLSearchParams('sort=-price&min_area=7,5&max_area=20'))).toEqual({
      sort: '-price',
      min_area: 7.5,
      max_area: 20,
    });
    expect(readListingFilter(new URLSearchParams('sort=cheap&min_area=-1&max_area=100001'))).toEqual({
      min_area: undefined,
      max_area: undefined,
    });
    expect(filterQuery({ sort: 'area', min_area: 5 })).toBe('?sort=area&min_area=5');
    expect(filterQuery({})).toBe('');
  });
});

describe('shownListings', () => {
  const all = [listing('S-10', 10, 30000), listing('S-2', 2, 9000), listing('M-5', 5, 18000)];

  it('keeps areas within the bounds, both inclusive, in import order without a sort', () => {
    expect(shownListings(all, { min_area: 5, max_area: 10 }).map((l) => l.code)).toEqual(['S-10', 'M-5']);
  });

  it("orders by the API's comparators: price, area, natural code order", () => {
    expect(shownListings(all, { sort: '-price' }).map((l) => l.code)).toEqual(['S-10', 'M-5', 'S-2']);
    expect(shownListings(all, { sort: 'code' }).map((l) => l.code)).toEqual(['M-5', 'S-2', 'S-10']);
  });

  it('turns a column between its orders, and says which one for aria-sort', () => {
    expect(nextSort(undefined, 'price')).toBe('price');
    expect(nextSort('price', 'price')).toBe('-price');
    expect(nextSort('-price', 'price')).toBe('price');
    expect(nextSort('-price', 'area')).toBe('area');
    expect(nextSort('code', 'code')).toBe('code');
    expect([ariaSortOf('-area', 'area'), ariaSortOf('area', 'area'), ariaSortOf('area', 'price')]).toEqual([
      'descending',
      'ascending',
      undefined,
    ]);
  });
});

describe('rowOf', () => {
  it("formats money and area for the operator's language, and a dynamic price's adjustment by occupancy", () => {
    const rules = [{ min_occupancy: 0.8, adjust_pct: 10 }];
    const full = listing('M-07', 7.5, 32900, { dynamic_pricing: true, free_units: 1, total_units: 10 });
    expect(rowOf(full, rules, 'en')).toEqual({
      area: '7.5\u00a0m²',
      gross: expect.stringMatching(/^PLN\s329\.00$/),
      net: expect.stringMatching(/^PLN\s267\.48$/),
      adjust: '+10%',
      promotions: [],
      features: [],
      moveIn: null,
    });
    expect(rowOf({ ...full, free_units: 5 }, rules, 'de').adjust).toBe('0\u00a0%');
    expect(rowOf(listing('F-1', 1, 100), rules, 'pl').adjust).toBeNull();
  });
});

describe('inactive listings and terms', () => {
  const terms = {
    promotions: [{ title: 'First month', gross: 100 }],
    features: ['drive_up' as const],
    unit_type: null,
    move_in: 54_300,
  };
  const all = [listing('A', 5, 1000, { terms }), listing('B', 6, 2000, { active: false })];

  it('keeps both by default, or only the state the query names', () => {
    expect(shownListings(all, readListingFilter(new URLSearchParams(''))).map((l) => l.code)).toEqual(['A', 'B']);
    expect(shownListings(all, readListingFilter(new URLSearchParams('state=inactive'))).map((l) => l.code)).toEqual([
      'B',
    ]);
    expect(filterQuery(readListingFilter(new URLSearchParams('state=active&state=x')))).toBe('?state=active');
    expect(readListingFilter(new URLSearchParams('state=gone'))).not.toHaveProperty('state');
  });

  it("formats an active listing's promotions, features and move-in, and no terms for an inactive one", () => {
    const row = rowOf(all[0]!, [], 'en');
    const plain = (text: string | null) => text?.replace(/\s/g, ' ');
    expect(row.promotions.map(plain)).toEqual(['First month: PLN 1.00']);
    expect(row.features).toHaveLength(1);
    expect(plain(row.moveIn)).toBe('PLN 543.00');
    expect(rowOf(all[1]!, [], 'en')).toMatchObject({ promotions: [], features: [], moveIn: null });
  });
});
