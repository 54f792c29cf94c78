// The API's memo of accepted keys: a flood of valid keys keeps 10,000 of them, the one in use among them, so a key
// in use never pays a SHA-256 and a store read again because others came by. And a body's answer carries the key's
// CORS set whole, whatever its status and coding.
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

const apiOverDemo = () =>
  new ListingsApi(
    { db: demo.db, publicUrl: URL_BASE, keyPrefix: 'svc', defaultLimit: NO_LIMIT, authFailureLimit: NO_LIMIT },
    { freshness: new Freshness(demo.db), views: new ViewsCache(demo.db, URL_BASE) },
  );

const listOf = (api: ListingsApi, headers: Record<string, string>) =>
  api.handle({ method: 'GET', url: API_PREFIX, headers, remoteAddress: '127.0.0.1' }, API_PREFIX, '', {
    requestId: 'test-request',
    keyId: undefined,
  });

it('a flood of valid keys keeps 10,000 accepted, the key in use among them', () => {
  const api = apiOverDemo();
  const get = (key: string) => listOf(api, { 'x-api-key': key }).status;
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

it("answers with every header of the key's CORS set, for a 200 and a 304, with and without Accept-Encoding", () => {
  const api = apiOverDemo();
  const key = keys[1]!;
  expect(listOf(api, { 'x-api-key': key }).status).toBe(200);
  const { cors } = api.accepted.get(key)!;
  for (const [coding, set] of [
    [undefined, cors.headers],
    ['br', cors.coded],
  ] as const) {
    const asked: Record<string, string> = coding
      ? { 'x-api-key': key, 'accept-encoding': coding }
      : { 'x-api-key': key };
    const ok = listOf(api, asked);
    expect(ok.status).toBe(200);
    expect(ok.headers).toMatchObject({ ...set, 'content-type': 'application/json; charset=utf-8' });
    expect(ok.headers['content-encoding']).toBe(coding);
    expect(ok.headers['x-request-id']).toBe('test-request');
    const notModified = listOf(api, { ...asked, 'if-none-match': ok.headers.etag! });
    expect(notModified.status).toBe(304);
    expect(notModified.headers).toMatchObject({ ...set, etag: ok.headers.etag, 'cache-control': 'private, no-cache' });
    expect(notModified.headers['content-type']).toBeUndefined();
    expect(notModified.headers['content-encoding']).toBeUndefined();
  }
  api.close();
});
