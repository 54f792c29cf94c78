// The rental pages' cache: a page from one listing read, the Detail the API answers, kept within its byte budget
// (least recently used out first), dropped for a facility whose revision moved, and codes not served remembered.
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { tempDir } from '../../../test/helpers/fixture.ts';
import { markedFacility } from '../../../test/helpers/data.ts';
import type { Detail } from '../../../shared/listing.ts';
import { openDb, type Db } from '../../store/db.ts';
import { applyImport, facilityRevisions } from '../../store/facilities.ts';
import { ImportFile } from '../../schemas/import.ts';
import type { Variant } from './facility-views.ts';
import { PageCache } from './page-cache.ts';
import { ViewsCache } from './views-cache.ts';

let db: Db;
let cleanup: () => void;
const a = markedFacility('page-a', 'QXPAGEA', 40, 3);
const b = markedFacility('page-b', 'QXPAGEB', 10);

beforeAll(() => {
  let dir: string;
  ({ dir, cleanup } = tempDir());
  db = openDb(`${dir}/pages.db`);
  applyImport(db, ImportFile.parse({ facilities: [a.json, b.json] }));
});
afterAll(() => {
  db.close();
  cleanup();
});

const URL_BASE = 'http://127.0.0.1:8787';
/** A page that is the Detail it was made from, padded to `size` bytes. */
const renderAs =
  (size = 0) =>
  (detail: Detail) =>
    JSON.stringify(detail).padEnd(size);

it('makes a page from the very Detail the API answers for that listing, reads it once, and finds nothing for other codes', () => {
  const pages = new PageCache(db, URL_BASE);
  const api = new ViewsCache(db, URL_BASE);
  const views = api.get('page-a')!;
  for (const [i, code] of a.facility.codes.entries()) {
    const page = pages.pageOf('page-a', code, renderAs()) as Variant;
    const detail = api.detailBody(views, a.facility.ids[i]!)!;
    expect(JSON.parse(page.bytes.toString())).toEqual(JSON.parse(detail.identity.bytes.toString()));
  }
  const code = a.facility.codes[0]!;
  expect((pages.pageOf('page-a', code, () => 'rendered twice') as Variant).bytes.toString()).not.toBe('rendered twice');
  expect(pages.reads).toBe(a.facility.codes.length);
  // Inactive, unknown, another facility's, or a pair whose key could spell another's: nothing, each read once.
  const others: [string, string][] = [
    ['page-a', 'QXPAGEA-off-0'],
    ['page-a', 'NOPE'],
    ['page-b', code],
    ['page-', `a${code}`],
    ['no-such', code],
  ];
  for (const round of [1, 2])
    for (const [facility, other] of others)
      expect(pages.pageOf(facility, other, renderAs()), `${round}`).toBeUndefined();
  expect(pages.reads).toBe(a.facility.codes.length + others.length);
});

it('keeps its bytes within the budget, counting each page, and the least recently used page leaves first', () => {
  const budget = 64 * 1024;
  const pages = new PageCache(db, URL_BASE, budget);
  const [first, second, ...rest] = a.facility.codes;
  pages.pageOf('page-a', first!, renderAs(8000));
  pages.pageOf('page-a', second!, renderAs(8000));
  for (const code of rest) {
    pages.pageOf('page-a', first!, renderAs(8000)); // used again and again: never the oldest
    pages.pageOf('page-a', code, renderAs(8000));
    expect(pages.held.bytes).toBeLessThanOrEqual(budget);
  }
  expect(pages.held.bytes).toBeGreaterThan(budget - 2 * 8400);
  expect(pages.held.pages).toBeLessThan(8);
  const reads = pages.reads;
  pages.pageOf('page-a', first!, renderAs(8000));
  expect(pages.reads).toBe(reads);
  pages.pageOf('page-a', second!, renderAs(8000));
  expect(pages.reads).toBe(reads + 1);
  // A page larger than the whole budget is served, not kept.
  expect((pages.pageOf('page-b', b.facility.codes[0]!, renderAs(budget + 1)) as Variant).bytes.length).toBeGreaterThan(
    budget,
  );
  expect(pages.held.bytes).toBeLessThanOrEqual(budget);
});

it('compresses a kept page once per coding, with an ETag of its own, and counts the coded bytes in the budget', () => {
  const budget = 64 * 1024;
  const pages = new PageCache(db, URL_BASE, budget);
  const code = a.facility.codes[0]!;
  const identity = pages.pageOf('page-a', code, renderAs(8000)) as Variant;
  const held = pages.held.bytes;
  const br = pages.pageOf('page-a', code, renderAs(8000), undefined, '', 'br') as Variant;
  const gzip = pages.pageOf('page-a', code, renderAs(8000), undefined, '', 'gzip') as Variant;
  expect([identity.coding, br.coding, gzip.coding]).toEqual([null, 'br', 'gzip']);
  expect(brotliDecompressSync(br.bytes)).toEqual(identity.bytes);
  expect(gunzipSync(gzip.bytes)).toEqual(identity.bytes);
  expect(new Set([identity.etag, br.etag, gzip.etag]).size).toBe(3);
  expect(pages.held.bytes).toBe(held + br.bytes.length + gzip.bytes.length);
  // Asked again: the same bytes, not compressed again, and nothing more counted.
  expect(pages.pageOf('page-a', code, renderAs(8000), undefined, '', 'br')).toBe(br);
  expect(pages.held.bytes).toBe(held + br.bytes.length + gzip.bytes.length);
  // Many pages in both codings: the budget holds them all, coded bytes included.
  for (const other of a.facility.codes)
    for (const coding of [null, 'br', 'gzip'] as const) {
      pages.pageOf('page-a', other, renderAs(20_000), undefined, 'x', coding);
      expect(pages.held.bytes).toBeLessThanOrEqual(budget);
    }
});

it("drops a facility's pages when its revision moves, and only its own", () => {
  const pages = new PageCache(db, URL_BASE);
  const pageA = pages.pageOf('page-a', a.facility.codes[0]!, renderAs())!;
  const pageB = pages.pageOf('page-b', b.facility.codes[0]!, renderAs())!;
  const renamed = {
    ...a.json,
    listings: a.json.listings.map((l, i) => (i === 0 ? { ...l, title: 'QXRENAMED' } : l)),
  };
  applyImport(db, ImportFile.parse({ facilities: [renamed] }));
  pages.dropChanged(facilityRevisions(db));
  expect((pages.pageOf('page-a', a.facility.codes[0]!, renderAs()) as Variant).bytes.toString()).toContain('QXRENAMED');
  expect(pages.pageOf('page-a', a.facility.codes[0]!, renderAs())).not.toBe(pageA);
  expect(pages.pageOf('page-b', b.facility.codes[0]!, renderAs())).toBe(pageB);
});

it('remembers codes that are not served within a byte budget of their own, and forgets them on a data change', () => {
  const pages = new PageCache(db, URL_BASE, undefined, 4096);
  for (let i = 0; i < 200; i++) pages.pageOf('page-a', `NOPE-${i}`, renderAs());
  expect(pages.held.missingBytes).toBeLessThanOrEqual(4096);
  const reads = pages.reads;
  pages.pageOf('page-a', 'NOPE-199', renderAs());
  expect(pages.reads).toBe(reads);
  pages.dropChanged(facilityRevisions(db));
  expect(pages.held.missingBytes).toBe(0);
  pages.pageOf('page-a', 'NOPE-199', renderAs());
  expect(pages.reads).toBe(reads + 1);
});

it('keeps codes that are not served across a commit that imports nothing, and forgets them after an import', () => {
  const pages = new PageCache(db, URL_BASE);
  pages.dropChanged(facilityRevisions(db));
  pages.pageOf('page-a', 'NOPE-1', renderAs());
  const reads = pages.reads;
  pages.dropChanged(facilityRevisions(db)); // a key revoked, a webhook recorded: no revision moved
  pages.pageOf('page-a', 'NOPE-1', renderAs());
  expect(pages.reads).toBe(reads);
  const renamed = { ...a.json, name: `${a.json.name} again` };
  applyImport(db, ImportFile.parse({ facilities: [renamed] }));
  pages.dropChanged(facilityRevisions(db));
  pages.pageOf('page-a', 'NOPE-1', renderAs());
  expect(pages.reads).toBe(reads + 1);
});
