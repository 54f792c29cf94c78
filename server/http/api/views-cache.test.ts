// The per-facility views cache: built once, served by identity, filtered lists sliced from the list and counted against
// the budget, and over budget the least recently used facility of its tier leaves.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { demoDb, demoJson, tempDir } from '../../../test/helpers/fixture.ts';
import type { Db } from '../../store/db.ts';
import fc from 'fast-check';
import { sortListings } from '../../domain/sort.ts';
import type { ListResponse } from '../../schemas/listing.ts';
import { applyImport } from '../../store/facilities.ts';
import { listingJson } from '../../../test/helpers/data.ts';
import type { ListQuery } from './query.ts';
import { ViewsCache } from './views-cache.ts';

let db: Db;
let cleanup: () => void;
let ids: [string, string, string];

beforeAll(() => {
  let dir: string;
  ({ dir, cleanup } = tempDir());
  db = demoDb(dir).db;
  const active = demoJson()
    .facilities.filter((f) => f.active !== false)
    .map((f) => f.id as string);
  ids = [active[0]!, active[1]!, active[2]!];
});
afterAll(() => {
  db.close();
  cleanup();
});

const URL_BASE = 'http://127.0.0.1:8787';

it('serves a facility from memory after its first use, and drops everything on clear()', () => {
  const cache = new ViewsCache(db, URL_BASE);
  const first = cache.get(ids[0])!;
  expect(first.list.identity.bytes.length).toBeGreaterThan(0);
  expect(cache.get(ids[0])).toBe(first);
  cache.clear();
  expect(cache.get(ids[0])).not.toBe(first);
  expect(cache.get('no-such-facility')).toBeUndefined();
});

it('over budget, evicts the least recently used facility, not the first one built', () => {
  const sizes = ids.map((id) => new ViewsCache(db, URL_BASE).get(id)!.size);
  // Room for all three but one byte: building the third evicts exactly one facility.
  const cache = new ViewsCache(db, URL_BASE, sizes[0]! + sizes[1]! + sizes[2]! - 1);
  const [a, b, c] = ids;
  const viewsA = cache.get(a)!;
  const viewsB = cache.get(b)!;
  expect(cache.get(a)).toBe(viewsA); // a is now more recent than b
  const viewsC = cache.get(c)!;
  expect(cache.get(a)).toBe(viewsA);
  expect(cache.get(c)).toBe(viewsC);
  expect(cache.get(b)).not.toBe(viewsB); // b was evicted and is built again (which in turn evicts a, now the oldest)
  expect(cache.get(c)).toBe(viewsC);
  expect(cache.get(a)).not.toBe(viewsA);
});

/** What a filtered list must hold: the contract's rules, applied to the whole list's summaries. */
function expected(list: ListResponse, q: ListQuery): ListResponse {
  const kept = list.listings.filter(
    (l) =>
      (q.available !== 'true' || l.free_units > 0) &&
      (q.min_area === undefined || l.area_m2 >= q.min_area) &&
      (q.max_area === undefined || l.area_m2 <= q.max_area),
  );
  return { facility: list.facility, listings: q.sort ? sortListings(kept, q.sort) : kept };
}

const anyQuery: fc.Arbitrary<ListQuery> = fc.record(
  {
    available: fc.constantFrom('true' as const, 'false' as const),
    min_area: fc.double({ min: 0, max: 30, noNaN: true }).map((v) => Math.round(v * 100) / 100),
    max_area: fc.double({ min: 0, max: 30, noNaN: true }).map((v) => Math.round(v * 100) / 100),
    sort: fc.constantFrom('price' as const, '-price' as const, 'area' as const, '-area' as const, 'code' as const),
  },
  { requiredKeys: [] },
);

it('a filtered list is the whole list filtered and sorted by the contract, byte for byte', () => {
  const cache = new ViewsCache(db, URL_BASE);
  const views = cache.get(ids[0])!;
  const whole = JSON.parse(views.list.identity.bytes.toString()) as ListResponse;
  fc.assert(
    fc.property(anyQuery, (q) => {
      const bytes = cache.listBody(views, q).body.identity.bytes.toString();
      expect(bytes).toBe(JSON.stringify(expected(whole, q)));
    }),
    { numRuns: 300 },
  );
});

it('distinct filter values that pick the same listings share one body; filtered bodies count against the budget', () => {
  const cache = new ViewsCache(db, URL_BASE);
  const views = cache.get(ids[0])!;
  const areas = [...views.areas];
  const before = cache.held.small;
  // Every value between two adjacent areas picks the same listings: one body for all of them.
  const lo = areas[0]!;
  const hi = areas[1]!;
  const first = cache.listBody(views, { min_area: lo + (hi - lo) / 3 }).body;
  for (let k = 1; k <= 50; k++) expect(cache.listBody(views, { min_area: lo + ((hi - lo) * k) / 51 }).body).toBe(first);
  expect(cache.held.small).toBeGreaterThan(before);
  // Every empty result is one body.
  expect(cache.listBody(views, { min_area: 99_999 }).body).toBe(
    cache.listBody(views, { max_area: 0, sort: 'code' }).body,
  );
  expect(views.filtered.size).toBe(2);
  expect(cache.held.small).toBe(views.size);
});

it("a facility's filtered bodies are bounded, and giving them back is counted", () => {
  const cache = new ViewsCache(db, URL_BASE);
  const views = cache.get(ids[0])!;
  const built = views.size;
  const n = views.areas.length;
  for (let a = 0; a < n; a++)
    for (let b = a; b < n; b++)
      for (const sort of ['price', '-price', 'area', '-area', 'code'] as const)
        cache.listBody(views, { min_area: views.areas[a], max_area: views.areas[b], sort });
  expect(views.filtered.size).toBeLessThanOrEqual(1024);
  expect(views.filteredBytes).toBeLessThanOrEqual(Math.max(1024 * 1024, 16 * views.list.identity.bytes.length));
  expect(views.size).toBe(built + views.filteredBytes);
  expect(cache.held.small).toBe(views.size);
});

it("after another connection's import, only the imported facility's views are built again", () => {
  const cache = new ViewsCache(db, URL_BASE);
  const [a, b] = ids;
  const viewsA = cache.get(a)!;
  const viewsB = cache.get(b)!;
  const file = demoJson();
  applyImport(db, { facilities: [file.facilities.find((f) => f.id === b)] } as never);
  cache.dropChanged();
  expect(cache.get(a)).toBe(viewsA);
  expect(cache.get(b)).not.toBe(viewsB);
});

it('a facility larger than an eighth of the budget is kept apart: small facilities cannot push it out', () => {
  const big = {
    id: 'big-one',
    name: 'Big',
    currency: 'PLN',
    listings: Array.from({ length: 400 }, (_, i) => listingJson(`B-${i}`, `Big unit ${i}`, i)),
  };
  applyImport(db, { facilities: [{ ...big, pricing_rules: [] }] } as never);
  const probe = new ViewsCache(db, URL_BASE).get('big-one')!.size;
  // The big facility is more than the whole budget; the three small ones fit.
  const cache = new ViewsCache(db, URL_BASE, probe - 1);
  const first = cache.get('big-one')!;
  for (let round = 0; round < 5; round++) {
    for (const id of ids) cache.get(id);
    expect(cache.get('big-one')).toBe(first);
  }
  expect(cache.builds).toBe(1 + ids.length);
  expect(cache.held.large).toBe(first.size);
});

it('a Detail body is made on its first request, counted, and then served by identity; other ids find nothing', () => {
  const cache = new ViewsCache(db, URL_BASE);
  const views = cache.get(ids[0])!;
  const id = views.summaries[0]!.id;
  const before = cache.held.small;
  const body = cache.detailBody(views, id)!;
  expect(JSON.parse(body.identity.bytes.toString()).id).toBe(id);
  expect(cache.held.small).toBeGreaterThan(before);
  expect(cache.detailBody(views, id)).toBe(body);
  for (const other of [`${id}0`, id.slice(1), '', 'lst_00000000000000000000'])
    expect(cache.detailBody(views, other)).toBeUndefined();
});
