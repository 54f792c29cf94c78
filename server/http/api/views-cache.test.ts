// The per-facility views cache: built once, served by identity, and over budget the least recently used facility leaves.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { demoDb, demoJson, tempDir } from '../../../test/helpers/fixture.ts';
import type { Db } from '../../store/db.ts';
import { DetailIndex, ViewsCache, type ApiBody } from './views-cache.ts';

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

it('finds a detail body by the id at the end of a path, and nothing for any other text there', () => {
  const prefix = '/external/listings/';
  // 300 hex ids, and ids with the same last five characters (one slot, so found by probing past each other).
  const hex = Array.from({ length: 300 }, (_, i) => `lst_${(i * 7919).toString(16).padStart(20, '0')}`);
  const ids = [...hex, 'lst_1aaaaa', 'lst_2aaaaa', 'x-aaaaa', 'aaaaa'];
  const bodies = ids.map((id) => ({ id }) as unknown as ApiBody);
  const index = new DetailIndex(ids.map((id, n) => [id, bodies[n]!] as const));
  ids.forEach((id, n) => expect(index.get(prefix + id, prefix.length)).toBe(bodies[n]));
  const at = (path: string) => index.get(path, prefix.length);
  expect(at(`${prefix}${hex[0]}0`)).toBeUndefined(); // one character longer
  expect(at(`${prefix}0${hex[0]}`)).toBeUndefined(); // the id with text before it
  expect(at(`${prefix}${hex[0]!.slice(1)}`)).toBeUndefined(); // one shorter
  expect(at(`${prefix}baaaaa`)).toBeUndefined(); // the alike ids' slot, another id
  expect(at(`${prefix}lst_3aaaaa`)).toBeUndefined();
  expect(at(prefix)).toBeUndefined();
  expect(new DetailIndex([]).get(prefix + hex[0], prefix.length)).toBeUndefined();
});
