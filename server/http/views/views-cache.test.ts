// The per-facility views cache: built once, served by identity, filtered lists sliced from the list and counted against
// the budget, and over budget the least recently used facility of its tier leaves.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { demoDb, demoJson, tempDir } from '../../../test/helpers/fixture.ts';
import type { Db } from '../../store/db.ts';
import fc from 'fast-check';
import { brotliDecompressSync } from 'node:zlib';
import type { ListResponse } from '../../../shared/listing.ts';
import { applyImport } from '../../store/facilities.ts';
import type { ListQuery } from './query.ts';
import { expectedList } from '../../../test/helpers/filtered-list.ts';
import { listingJson } from '../../../test/helpers/data.ts';
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

it('remembers 16,384 ids not served, the ones asked for again, so a flood of unknown ids cannot grow memory', () => {
  const cache = new ViewsCache(db, URL_BASE);
  cache.get('asked-again');
  for (let i = 0; i < 17_000; i++) {
    cache.get(`unknown-${i}`);
    if (i % 4096 === 0) cache.get('asked-again');
  }
  expect(cache.missing.size).toBe(16_384);
  const reads = cache.reads;
  expect(cache.get('asked-again')).toBeUndefined();
  expect(cache.reads).toBe(reads);
  expect(cache.get('unknown-0')).toBeUndefined();
  expect(cache.reads).toBe(reads + 1);
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
      const bytes = cache.listVariant(views, q, null).variant!.bytes.toString();
      expect(bytes).toBe(JSON.stringify(expectedList(whole, q)));
      expect(brotliDecompressSync(cache.listVariant(views, q, 'br').variant!.bytes).toString()).toBe(bytes);
    }),
    { numRuns: 300 },
  );
});

it('distinct filter values that pick the same listings share one kept coding; identity is cut again, same ETag', () => {
  const cache = new ViewsCache(db, URL_BASE);
  const views = cache.get(ids[0])!;
  const areas = [...views.areas];
  // Every value between two adjacent areas picks the same listings: one body for all of them.
  const lo = areas[0]!;
  const hi = areas[1]!;
  const first = cache.listVariant(views, { min_area: lo + (hi - lo) / 3 }, 'br');
  expect(first.scanned).toBe(views.area.length);
  for (let k = 1; k <= 50; k++) {
    const again = cache.listVariant(views, { min_area: lo + ((hi - lo) * k) / 51 }, 'br');
    expect(again.variant).toBe(first.variant);
    expect(again.scanned).toBe(0);
  }
  const identity = cache.listVariant(views, { min_area: hi }, null);
  expect(identity.scanned).toBe(views.area.length);
  expect(`${identity.variant!.etag.slice(0, -1)}-br"`).toBe(first.variant!.etag);
  // Every empty result is one body.
  expect(cache.listVariant(views, { min_area: 99_999 }, 'gzip').variant).toBe(
    cache.listVariant(views, { max_area: 0, sort: 'code' }, 'gzip').variant,
  );
  expect(cache.held.filteredLists).toBe(2);
  expect(cache.held.filtered).toBeGreaterThan(first.variant!.bytes.length);
});

it('filtered lists keep to three quarters of the budget, oldest out first, and leave with their facility', () => {
  const probe = new ViewsCache(db, URL_BASE);
  const views = probe.get(ids[0])!;
  const all = { min_area: 0 };
  const one = probe.listVariant(views, all, 'br').variant!.bytes.length;
  // Room for the facility and a few of its whole filtered lists.
  const cache = new ViewsCache(db, URL_BASE, views.size + one * 16);
  const own = cache.get(ids[0])!;
  const n = own.areas.length;
  for (let a = 0; a < n; a++)
    for (const sort of ['price', '-price', 'area', '-area', 'code'] as const)
      cache.listVariant(own, { min_area: own.areas[a], sort }, 'br');
  expect(cache.held.filtered).toBeLessThanOrEqual(((views.size + one * 16) * 3) / 4);
  expect(cache.held.filteredLists).toBeGreaterThan(0);
  expect(cache.get(ids[0])).toBe(own); // the facility's own views were never pushed out by its lists
  const last = cache.listVariant(own, { min_area: own.areas[n - 1], sort: 'code' }, 'br');
  expect(last.scanned).toBe(0); // the newest is still kept
  applyImport(db, { facilities: [demoJson().facilities.find((f) => f.id === ids[0])] } as never);
  cache.dropChanged();
  expect(cache.held.filteredLists).toBe(0); // left with the facility's views
  cache.listVariant(cache.get(ids[0])!, { min_area: own.areas[1] }, 'br');
  cache.clear();
  expect(cache.held).toEqual({ small: 0, large: 0, filtered: 0, filteredLists: 0 });
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

it('an unknown facility costs one store read until the next data change, which may create it', () => {
  const cache = new ViewsCache(db, URL_BASE);
  for (let i = 0; i < 5; i++) expect(cache.get('later-one')).toBeUndefined();
  expect(cache.reads).toBe(1);
  const later = {
    id: 'later-one',
    name: 'Later',
    currency: 'PLN',
    pricing_rules: [],
    listings: [listingJson('L-1', 'Later unit', 0)],
  };
  applyImport(db, { facilities: [later] } as never);
  cache.dropChanged();
  expect(cache.get('later-one')?.facility.id).toBe('later-one');
  expect(cache.reads).toBe(2);
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
  const id = views.data.listings[0]!.id;
  const before = cache.held.small;
  const body = cache.detailBody(views, id)!;
  expect(JSON.parse(body.identity.bytes.toString()).id).toBe(id);
  expect(cache.held.small).toBeGreaterThan(before);
  expect(cache.detailBody(views, id)).toBe(body);
  for (const other of [`${id}0`, id.slice(1), '', 'lst_00000000000000000000'])
    expect(cache.detailBody(views, other)).toBeUndefined();
});

it('a facility alone over the budget sheds its own Details, oldest first, and keeps its list: the budget holds for what grows', () => {
  const probe = new ViewsCache(db, URL_BASE).get(ids[0])!;
  const base = probe.size;
  const detailCost = (i: number) => new ViewsCache(db, URL_BASE).detailBody(probe, probe.data.listings[i]!.id)!;
  // Room for the list and about two Details: a third pushes out the first, not the facility.
  const budget = base + 2 * (detailCost(0).identity.bytes.length + 1024);
  const cache = new ViewsCache(db, URL_BASE, budget);
  const views = cache.get(ids[0])!;
  const made = views.data.listings.slice(0, 6).map((l) => cache.detailBody(views, l.id)!);
  expect(cache.held.small + cache.held.large).toBeLessThanOrEqual(budget);
  expect(cache.get(ids[0])).toBe(views);
  expect(views.details[0]).toBeUndefined();
  expect(views.details[5]).toBe(made[5]);
  // A shed Detail is made again on its next request, with the same bytes.
  expect(cache.detailBody(views, views.data.listings[0]!.id)!.identity.bytes.equals(made[0]!.identity.bytes)).toBe(
    true,
  );
  expect(cache.builds).toBe(1);
});

it("a large facility's sort orders are made with its views, not in a later request's turn; a small one's on first use", () => {
  const small = new ViewsCache(db, URL_BASE).get(ids[0])!;
  expect(Object.keys(small.orders)).toEqual([]);
  // A budget this small makes every facility a large one.
  const large = new ViewsCache(db, URL_BASE, 1024).get(ids[0])!;
  expect(Object.keys(large.orders).sort()).toEqual(['-area', '-price', 'area', 'code', 'price']);
});
