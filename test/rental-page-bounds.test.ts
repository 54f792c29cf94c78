// Rental pages have a bounded cost whatever the data's size (issue 42, items 2 and 3): page traffic across large
// facilities never builds a facility's views nor pushes out the ones keyed clients use, and a crawl of every page of a
// facility with long fields keeps the pages' bytes within their own budget.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDb } from '../server/store/db.ts';
import { applyImport } from '../server/store/facilities.ts';
import { ImportFile } from '../server/schemas/import.ts';
import { ViewsCache } from '../server/http/views/views-cache.ts';
import { markedFacility } from './helpers/data.ts';
import { issueKey, tempDir } from './helpers/fixture.ts';
import { handlerOver, inject, PUBLIC_URL } from './helpers/inject.ts';
import { longFieldsFacility } from './helpers/long-fields.ts';

let cleanup: () => void;
let file: string;
let key: string;
const large = ['big-0', 'big-1', 'big-2', 'big-3'].map((id, i) => markedFacility(id, `QXBIG${i}`, 3000));
const long = longFieldsFacility('long', 1500);
/** The views of one large facility, as the views cache counts them. */
let largeSize: number;
let longSize: number;

beforeAll(() => {
  let dir: string;
  ({ dir, cleanup } = tempDir());
  file = join(dir, 'listings.db');
  const db = openDb(file);
  applyImport(db, ImportFile.parse({ facilities: [...large.map((f) => f.json), long.json] }));
  key = issueKey(db, 'big-0').key;
  largeSize = new ViewsCache(db, PUBLIC_URL).get('big-0')!.size;
  longSize = new ViewsCache(db, PUBLIC_URL).get('long')!.size;
  db.close();
}, 60_000);
afterAll(() => cleanup());

const unlimited = { rate: 1e9, burst: 1e9 };

describe('rental pages', () => {
  it("rotating across large facilities leave the keyed client's views where they are, and build no facility's views", async () => {
    // Room for one large facility's views and a half: any second one would push the first out.
    const handler = handlerOver(file, {
      pageLimit: unlimited,
      pageRenderLimit: unlimited,
      cacheBudgetBytes: Math.floor(largeSize * 1.5),
    });
    try {
      const list = async () =>
        (await inject(handler, { url: '/external/listings', headers: { 'x-api-key': key } })).status;
      expect(await list()).toBe(200);
      const keyed = handler.views.get('big-0');
      const others = large.slice(1);
      for (let i = 0; i < 300; i++) {
        const { facility } = others[i % others.length]!;
        expect((await inject(handler, { url: `/rent/${facility.id}/${facility.codes[i * 7]}` })).status).toBe(200);
        if (i % 10 === 0) expect(await list()).toBe(200);
      }
      expect(handler.views.builds).toBe(1);
      expect(handler.views.reads).toBe(1);
      expect(handler.views.get('big-0')).toBe(keyed);
      // Each page cost one listing's read, not a facility's.
      expect(handler.pages.reads).toBe(300);
    } finally {
      handler.close();
    }
  });

  it("of a facility with long fields, every one of them crawled, keep their bytes within the pages' budget", async () => {
    const pageCacheBytes = 2 * 1024 * 1024;
    // Room for the facility's views and a pages' budget more: its pages must not grow the views past it either.
    const cacheBudgetBytes = longSize + pageCacheBytes;
    const handler = handlerOver(file, {
      pageLimit: unlimited,
      pageRenderLimit: unlimited,
      cacheBudgetBytes,
      pageCacheBytes,
    });
    try {
      let bytes = 0;
      for (const [i, code] of long.codes.entries()) {
        const page = await inject(handler, { url: `/rent/long/${code}` });
        expect(page.status).toBe(200);
        bytes += page.body.length;
        if (i % 100 === 99) {
          const { small, large: largeTier, filtered } = handler.views.held;
          expect(small + largeTier + filtered).toBeLessThanOrEqual(cacheBudgetBytes);
          expect(handler.pages.held.bytes).toBeLessThanOrEqual(pageCacheBytes);
        }
      }
      // The crawl was many budgets' worth, and the cache is full, not empty.
      expect(bytes).toBeGreaterThan(pageCacheBytes * 3);
      expect(handler.pages.held.bytes).toBeGreaterThan(pageCacheBytes * 0.9);
      // The most recently used pages are kept: asking again reads nothing.
      const reads = handler.pages.reads;
      expect((await inject(handler, { url: `/rent/long/${long.codes.at(-1)}` })).status).toBe(200);
      expect(handler.pages.reads).toBe(reads);
    } finally {
      handler.close();
    }
  });
});
