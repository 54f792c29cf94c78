// The per-facility views cache: built once, served by identity, and over budget the least recently used facility leaves.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { demoDb, demoJson, tempDir } from '../../../test/helpers/fixture.ts';
import type { Db } from '../../store/db.ts';
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
