// The API's memo of accepted keys: a flood of valid keys keeps 10,000 of them, the one in use among them, so a key
// in use never pays a SHA-256 and a store read again because others came by.
import { expect, it } from 'vitest';
import { useDemoDb } from '../../../test/helpers/setup.ts';
import { Freshness } from '../../freshness/freshness.ts';
import { newKeyRow } from '../../store/keys.ts';
import { ViewsCache } from '../views/views-cache.ts';
import { API_PREFIX, ListingsApi } from './api.ts';

const URL_BASE = 'http://127.0.0.1:8787';
const NO_LIMIT = { rate: 1e9, burst: 1e9 };
const keys: string[] = [];
// Keys written as the store writes them, in one transaction: the store's createKey reads every ref per key.
const demo = useDemoDb({
  prepare: (db) => {
    const insert =
      db.prepare(`INSERT INTO api_keys (id, facility_id, label, digest, hint, created_at, rate_per_s, burst,
      allowed_origins, ref) VALUES (@id, @facility_id, @label, @digest, @hint, @created_at, @rate_per_s, @burst,
      @allowed_origins, @ref)`);
    const taken = new Set<string>();
    db.transaction(() => {
      for (let i = 0; i < 10_500; i++) {
        const { key, row } = newKeyRow({ facilityId: 'wro-1', prefix: 'svc', label: `flood ${i}` }, taken);
        taken.add(row.ref);
        insert.run(row);
        keys.push(key);
      }
    })();
  },
});

it('a flood of valid keys keeps 10,000 accepted, the key in use among them', () => {
  const api = new ListingsApi(
    { db: demo.db, publicUrl: URL_BASE, keyPrefix: 'svc', defaultLimit: NO_LIMIT, authFailureLimit: NO_LIMIT },
    { freshness: new Freshness(demo.db), views: new ViewsCache(demo.db, URL_BASE) },
  );
  const get = (key: string) =>
    api.handle(
      { method: 'GET', url: API_PREFIX, headers: { 'x-api-key': key }, remoteAddress: '127.0.0.1' },
      API_PREFIX,
      '',
      { requestId: 'test', keyId: undefined },
    ).status;
  const [used, ...others] = keys;
  expect(get(used!)).toBe(200);
  const profile = api.accepted.get(used!);
  others.forEach((key, i) => {
    expect(get(key)).toBe(200);
    if (i % 1000 === 0) expect(get(used!)).toBe(200);
  });
  expect(api.accepted.size).toBe(10_000);
  expect(api.accepted.get(used!)).toBe(profile);
  expect(api.accepted.get(others[0]!)).toBeUndefined();
  api.close();
});
