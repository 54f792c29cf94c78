// A large facility's views built in steps over event-loop turns: the same views as one read makes, one build for the
// requests that come meanwhile, as of the data at its end; and a large list's codings made in the thread pool.
import { createHash } from 'node:crypto';
import { brotliDecompressSync } from 'node:zlib';
import { expect, it } from 'vitest';
import { listingJson } from '../../../test/helpers/data.ts';
import { promotion } from '../../../test/helpers/rental-info.ts';
import { useDemoDb } from '../../../test/helpers/setup.ts';
import { applyImport } from '../../store/facilities.ts';
import { BUILD_STEP, type FacilityViews } from './facility-views.ts';
import { ViewsCache } from './views-cache.ts';

const demo = useDemoDb();
const URL_BASE = 'http://127.0.0.1:8787';

function importLarge(id: string, n: number, price = 0) {
  const listings = Array.from({ length: n }, (_, i) => ({
    ...listingJson(`L-${i}`, `Large unit ${i}`, i),
    ...(price > 0 && i === n - 1 ? { price_gross: price } : {}),
    photos: [{ url: `https://img.example/${id}/${i}.jpg`, caption: `Unit ${i}` }],
  }));
  applyImport(demo.db, { facilities: [{ id, name: 'Large', currency: 'PLN', pricing_rules: [], listings }] } as never);
}

const turn = () => new Promise((resolve) => setImmediate(resolve));

/** What a build gives that answers read: the list's bytes and ETag, the offsets, the filter columns, the index. */
const answersOf = (v: FacilityViews) => ({
  list: v.list.identity.bytes.toString(),
  etag: v.list.identity.etag,
  spans: [...v.spans],
  area: [...v.area],
  features: [...v.features],
  index: [...v.index],
  revision: v.revision,
  listings: v.data.listings,
});

it('builds a large facility in steps, over several turns, into the views one read makes', async () => {
  const n = 2 * BUILD_STEP + 300;
  importLarge('large-one', n);
  const cache = new ViewsCache(demo.db, URL_BASE, undefined, 0);
  const pending = cache.lookup('large-one');
  expect(pending).toBeInstanceOf(Promise);
  // Every request meanwhile waits for the same build, and the store is read for it once.
  expect(cache.lookup('large-one')).toBe(pending);
  let done = false;
  void (pending as Promise<unknown>).then(() => (done = true));
  let turns = 0;
  while (!done) {
    await turn();
    turns++;
  }
  // Each page read and each step of summaries on a turn of its own.
  expect(turns).toBeGreaterThanOrEqual(2 * Math.ceil(n / BUILD_STEP));
  const views = (await pending)!;
  expect(cache.reads).toBe(1);
  expect(cache.lookup('large-one')).toBe(views);
  const inOneGo = new ViewsCache(demo.db, URL_BASE).get('large-one')!;
  expect(answersOf(views)).toEqual(answersOf(inOneGo));
  // The list is the JSON of its summaries, and its ETag the digest of its bytes.
  const bytes = views.list.identity.bytes;
  expect(JSON.stringify(JSON.parse(bytes.toString()))).toBe(bytes.toString());
  expect(JSON.parse(bytes.toString()).listings).toHaveLength(n);
  expect(views.list.identity.etag).toBe(`"${createHash('sha1').update(bytes).digest('base64url')}"`);
  expect(views.data.listings).toHaveLength(n);
  expect(views.data.listings[n - 1]!.photos).toEqual([
    { url: `https://img.example/large-one/${n - 1}.jpg`, caption: `Unit ${n - 1}`, width: null, height: null },
  ]);
});

it('a build in steps that an import overtakes gives the imported data, never the data before it', async () => {
  importLarge('large-two', BUILD_STEP + 500);
  const cache = new ViewsCache(demo.db, URL_BASE, undefined, 0);
  const pending = cache.lookup('large-two') as Promise<FacilityViews | undefined>;
  // After the first page was read, another connection's import changes the facility's last listing.
  await turn();
  await turn();
  importLarge('large-two', BUILD_STEP + 500, 99_999);
  const views = (await pending)!;
  expect(views.data.listings.at(-1)!.price_gross).toBe(99_999);
  expect(answersOf(views)).toEqual(answersOf(new ViewsCache(demo.db, URL_BASE).get('large-two')!));
});

it('finds small and unknown facilities at once, and builds in one go where nothing is made off the loop', () => {
  importLarge('large-three', BUILD_STEP + 1);
  const offLoop = new ViewsCache(demo.db, URL_BASE, undefined, 0);
  expect(offLoop.lookup('no-such-facility')).toBeUndefined();
  const small = demo.db
    .prepare<[string], string>('SELECT id FROM facilities WHERE id <> ? LIMIT 1')
    .pluck()
    .get('large-three')!;
  expect(offLoop.lookup(small)).toMatchObject({ facility: { id: small } });
  const inLine = new ViewsCache(demo.db, URL_BASE);
  expect(inLine.lookup('large-three')).toMatchObject({ facility: { id: 'large-three' } });
  // A facility with no active listings: an empty list, its ETag the digest of its bytes.
  importLarge('empty-one', 0);
  const empty = inLine.get('empty-one')!.list.identity;
  expect(JSON.parse(empty.bytes.toString())).toMatchObject({ facility: { id: 'empty-one' }, listings: [] });
  expect(empty.etag).toBe(`"${createHash('sha1').update(empty.bytes).digest('base64url')}"`);
});

it("a large list's coding is made in the thread pool, once for the requests meanwhile, then kept", async () => {
  importLarge('large-four', BUILD_STEP + 1);
  const cache = new ViewsCache(demo.db, URL_BASE, undefined, 64 * 1024);
  const views = (await cache.lookup('large-four'))!;
  expect(views.list.identity.bytes.length).toBeGreaterThan(64 * 1024);
  const first = cache.listVariant(views, undefined, 'br');
  expect(first.variant).toBeUndefined();
  expect(cache.listVariant(views, undefined, 'br').later).toBe(first.later);
  const made = await first.later!;
  expect(brotliDecompressSync(made.bytes).equals(views.list.identity.bytes)).toBe(true);
  expect(made.etag).toBe(`${views.list.identity.etag.slice(0, -1)}-br"`);
  expect(cache.listVariant(views, undefined, 'br').variant).toBe(made);
  // As it is, the list is there at once.
  expect(cache.listVariant(views, undefined, null).variant).toBe(views.list.identity);
});

it('builds a large facility in steps again when a promotion of its ends, not in one go', async () => {
  const ends = Date.parse('2026-12-31T23:00:00Z');
  let now = ends - 60_000;
  const listings = Array.from({ length: BUILD_STEP + 10 }, (_, i) => ({
    ...listingJson(`P-${i}`, `Promoted unit ${i}`, i),
    promotions: i === 0 ? [promotion({ ends_at: new Date(ends).toISOString() })] : [],
  }));
  applyImport(demo.db, {
    facilities: [{ id: 'large-five', name: 'Large', currency: 'PLN', pricing_rules: [], listings }],
  } as never);
  const cache = new ViewsCache(demo.db, URL_BASE, undefined, 0, () => now);
  const before = (await cache.lookup('large-five'))!;
  expect(before.until).toBe(ends);
  expect(cache.lookup('large-five')).toBe(before);
  now = ends;
  const again = cache.lookup('large-five');
  expect(again).toBeInstanceOf(Promise);
  const after = (await again)!;
  expect(after.until).toBe(Infinity);
  expect(after.list.identity.etag).not.toBe(before.list.identity.etag);
});
