// A large facility's filtered lists made off the event loop: cut in steps over event-loop turns, compressed in the
// thread pool (or sent as cut) one at a time in one reused buffer, made once for the requests that come meanwhile,
// then kept.
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { expect, it } from 'vitest';
import type { ListResponse } from '../../../shared/listing.ts';
import { listingJson } from '../../../test/helpers/data.ts';
import { demoJson } from '../../../test/helpers/fixture.ts';
import { expectedList } from '../../../test/helpers/filtered-list.ts';
import { useDemoDb } from '../../../test/helpers/setup.ts';
import { applyImport } from '../../store/facilities.ts';
import { CUT_STEP, filteredBytesLater } from './filtered-lists.ts';
import type { ListQuery } from './query.ts';
import { ViewsCache } from './views-cache.ts';

const demo = useDemoDb();
const URL_BASE = 'http://127.0.0.1:8787';
const firstActive = demoJson().facilities.find((f) => f.active !== false)!.id as string;

it('a cut larger than offLoopBytes is compressed in the thread pool: one compression for requests that come meanwhile, then kept', async () => {
  const cache = new ViewsCache(demo.db, URL_BASE, undefined, 0);
  const views = cache.get(firstActive)!;
  const q = { min_area: 0, sort: 'price' as const };
  const first = cache.listVariant(views, q, 'br');
  expect(first.variant).toBeUndefined();
  expect(first.scanned).toBe(views.area.length);
  const meanwhile = cache.listVariant(views, q, 'br');
  expect(meanwhile.later).toBe(first.later);
  expect(meanwhile.scanned).toBe(0);
  const made = await first.later!;
  const identity = await cache.listVariant(views, q, null).later!;
  expect(brotliDecompressSync(made.bytes).equals(identity.bytes)).toBe(true);
  expect(made.etag).toBe(`${identity.etag.slice(0, -1)}-br"`);
  const after = cache.listVariant(views, q, 'br');
  expect(after.variant).toBe(made);
  expect(after.scanned).toBe(0);
});

it('cuts queued off the event loop at once are made one at a time in one reused buffer, each coming out whole', async () => {
  const listings = Array.from({ length: 2 * CUT_STEP + 500 }, (_, i) => listingJson(`Q-${i}`, `Queued unit ${i}`, i));
  applyImport(demo.db, {
    facilities: [{ id: 'queued-one', name: 'Queued', currency: 'PLN', pricing_rules: [], listings }],
  } as never);
  const cache = new ViewsCache(demo.db, URL_BASE, undefined, 0);
  const views = cache.get('queued-one')!;
  const whole = JSON.parse(views.list.identity.bytes.toString()) as ListResponse;
  // Largest first, each cut made in several steps: each later one is written over the one before it in the same buffer.
  const queries: ListQuery[] = [
    { sort: 'area' },
    { sort: '-price' },
    { min_area: views.areas[2] },
    { available: 'true' },
  ];
  // Every other one as it is: its bytes are copied out of the buffer before the next cut writes over it.
  const made = queries.map((q, i) => cache.listVariant(views, q, i % 2 ? null : 'br').later!);
  expect(made.every((p) => p instanceof Promise)).toBe(true);
  const bodies = await Promise.all(made);
  bodies.forEach((body, i) =>
    expect((i % 2 ? body.bytes : brotliDecompressSync(body.bytes)).toString()).toBe(
      JSON.stringify(expectedList(whole, queries[i]!)),
    ),
  );
});

it("a large facility's cut is made in steps over event-loop turns, each of at most CUT_STEP listings, byte for byte", async () => {
  const n = 2 * CUT_STEP + 500;
  const facility = {
    id: 'stepped-one',
    name: 'Stepped',
    currency: 'PLN',
    listings: Array.from({ length: n }, (_, i) => listingJson(`S-${i}`, `Stepped unit ${i}`, i)),
  };
  applyImport(demo.db, { facilities: [{ ...facility, pricing_rules: [] }] } as never);
  const cache = new ViewsCache(demo.db, URL_BASE, undefined, 0);
  const views = cache.get('stepped-one')!;
  const whole = JSON.parse(views.list.identity.bytes.toString()) as ListResponse;
  const q: ListQuery = { min_area: views.areas[1], sort: '-price' };
  let done = false;
  const cut = filteredBytesLater(views, q).then((bytes) => ((done = true), bytes));
  // Other clients' answers run between the steps: two pauses over the listings, two over the ~2,350 it copies.
  let turns = 0;
  while (!done) {
    await new Promise((resolve) => setImmediate(resolve));
    turns++;
  }
  expect(turns).toBeGreaterThanOrEqual(4);
  expect((await cut).toString()).toBe(JSON.stringify(expectedList(whole, q)));
  // The API's path: a coding of it made off the event loop.
  const made = gunzipSync((await cache.listVariant(views, q, 'gzip').later!).bytes).toString();
  expect(made).toBe(JSON.stringify(expectedList(whole, q)));
  expect(JSON.parse(made).listings.length).toBeGreaterThan(CUT_STEP);
  // Without a sort, runs of neighbouring listings are copied at once, across the steps too.
  for (const unsorted of [{ available: 'true' }, { max_area: views.areas.at(-2) }] as ListQuery[])
    expect((await filteredBytesLater(views, unsorted)).toString()).toBe(JSON.stringify(expectedList(whole, unsorted)));
});
