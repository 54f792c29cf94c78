// `sort` through the API's handler: codes in natural order (S-2 before S-10), ties in import order, for every key. The widget
// sorts with the same comparators (shared/sort.ts); widget/test/units.test.ts checks the same orders there.
import { describe, expect, it } from 'vitest';
import { parseImport } from '../server/domain/import.ts';
import { SORT_KEYS } from '../shared/sort.ts';
import { listingJson } from './helpers/data.ts';
import { issueKey } from './helpers/fixture.ts';
import { call, json } from './helpers/http.ts';
import { useDemoHandler } from './helpers/setup.ts';

/** Import order; equal prices and areas and the numerically equal S-2 / S-02 are the ties. */
const UNITS = [
  { code: 'S-10', price_gross: 5000, area_m2: 2 },
  { code: 'S-2', price_gross: 3000, area_m2: 4 },
  { code: 'A-1', price_gross: 5000, area_m2: 2 },
  { code: 's-3', price_gross: 1000, area_m2: 9 },
  { code: 'S-02', price_gross: 3000, area_m2: 4 },
  { code: 'S-1', price_gross: 9000, area_m2: 1 },
];

const EXPECTED: Record<(typeof SORT_KEYS)[number], string[]> = {
  code: ['A-1', 'S-1', 'S-2', 'S-02', 's-3', 'S-10'],
  price: ['s-3', 'S-2', 'S-02', 'S-10', 'A-1', 'S-1'],
  '-price': ['S-1', 'S-10', 'A-1', 'S-2', 'S-02', 's-3'],
  area: ['S-1', 'S-10', 'A-1', 'S-2', 'S-02', 's-3'],
  '-area': ['s-3', 'S-2', 'S-02', 'S-10', 'A-1', 'S-1'],
};

const listings = UNITS.map((u, i) => ({ ...listingJson(u.code, `Unit ${u.code}`, i), ...u, dynamic_pricing: false }));
const data = parseImport(
  JSON.stringify({ facilities: [{ id: 'codes-1', name: 'Codes', currency: 'EUR', listings }] }),
  'codes.json',
);
let key: string;
const demo = useDemoHandler({ data, prepare: (db) => void (key = issueKey(db, 'codes-1').key) });

const codesFor = async (query: string): Promise<string[]> =>
  json(await call(demo.handler, `/external/listings${query}`, { key })).listings.map((l: { code: string }) => l.code);

describe('sort', () => {
  it('keeps the import order without sort', async () => {
    expect(await codesFor('')).toEqual(UNITS.map((u) => u.code));
  });

  it.each(SORT_KEYS)('sort=%s orders as documented, ties in import order', async (sort) => {
    expect(await codesFor(`?sort=${encodeURIComponent(sort)}`)).toEqual(EXPECTED[sort]);
  });
});
