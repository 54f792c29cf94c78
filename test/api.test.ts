// The API's key matrix and its 404s, through the handler: who may see what, and that nothing leaks what exists.
import { describe, expect, it } from 'vitest';
import { listingIdOf } from '../server/domain/facility.ts';
import { revokeKey } from '../server/store/keys.ts';
import { demoJson, issueKey } from './helpers/fixture.ts';
import { call, json, type Reply } from './helpers/http.ts';
import { useDemoHandler } from './helpers/setup.ts';

let valid: { key: string; id: string };
let revoked: { key: string; id: string };
const LIST = '/external/listings';
const own = listingIdOf('wro-1', 'M-07');
// Many failed authentications come from one address here: the handler's per-address limit is lifted.
const demo = useDemoHandler({
  prepare: (db) => {
    valid = issueKey(db, 'wro-1');
    revoked = issueKey(db, 'wro-1');
    revokeKey(db, revoked.id);
  },
});

function expectProblem(r: Reply, status: number, code: string) {
  expect(r.status).toBe(status);
  expect(r.headers['content-type']).toBe('application/problem+json');
  const body = json(r);
  expect(body).toEqual({
    type: expect.stringMatching(/^https:\/\//),
    title: expect.any(String),
    status,
    detail: expect.any(String),
    code,
  });
  return body;
}

describe('the key', () => {
  const wellFormedUnknown = 'svc_live_' + 'Z9'.repeat(16);
  const cases: [string, () => string | undefined, string][] = [
    ['no key', () => undefined, 'missing_api_key'],
    ['an empty key', () => '', 'missing_api_key'],
    ['a malformed key', () => 'svc_live_tooshort', 'invalid_api_key'],
    ['a key with another prefix', () => valid.key.replace(/^svc/, 'acme'), 'invalid_api_key'],
    ['a key in "Bearer" form', () => `Bearer ${valid.key}`, 'invalid_api_key'],
    ['an unknown key', () => wellFormedUnknown, 'invalid_api_key'],
    ['a revoked key', () => revoked.key, 'revoked_api_key'],
  ];

  for (const path of [LIST, `${LIST}/${own}`]) {
    it.each(cases)(`${path === LIST ? 'list' : 'detail'}: %s is refused with 401 %s`, async (_name, key, code) => {
      const r = await call(demo.handler, path, { key: key() });
      expectProblem(r, 401, code);
      expect(r.headers['www-authenticate']).toBe('ApiKey header="X-API-Key"');
      expect(r.headers['access-control-allow-origin']).toBe('*');
      expect(r.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
      const presented = key();
      if (presented) expect(r.text).not.toContain(presented);
    });
  }

  it('a valid key reads its facility: list and detail', async () => {
    const list = await call(demo.handler, LIST, { key: valid.key });
    expect(list.status).toBe(200);
    const body = json(list);
    expect(body.facility).toMatchObject({ id: 'wro-1', name: demoJson().facilities[0].name });
    expect(Object.keys(body.facility)).toEqual([
      'id',
      'name',
      'address',
      'geo',
      'contact',
      'timezone',
      'office_hours',
      'access_hours',
      'amenities',
      'fees',
      'protection',
    ]);
    expect(body.listings.map((l: { id: string }) => l.id)).toContain(own);
    const detail = await call(demo.handler, `${LIST}/${own}`, { key: valid.key });
    expect(detail.status).toBe(200);
    expect(json(detail)).toMatchObject({ id: own, code: 'M-07' });
  });

  it('the key counts only in the X-API-Key header, not in the query', async () => {
    const r = await call(demo.handler, `${LIST}?api_key=${valid.key}&key=${valid.key}`);
    expectProblem(r, 401, 'missing_api_key');
  });
});

describe('listings a key cannot see', () => {
  const inactive = listingIdOf('wro-1', 'OLD-1');
  const otherFacility = listingIdOf('ber-1', 'S-1');
  const unseen: [string, string][] = [
    ["another facility's listing", otherFacility],
    ['an inactive listing', inactive],
    ['an unknown id', 'lst_' + '0'.repeat(20)],
    ['an id with an encoded path', '..%2F'],
    ['an id with encoded dots and slashes', '..%2F..%2Fopenapi.json'],
    ['a 300-character id', 'a'.repeat(300)],
    ['a unicode id', encodeURIComponent('lst_łódź-ü-😀')],
    ['an empty id', ''],
    ['an id with a trailing segment', `${own}/photos`],
    ['an upper-case id', own.toUpperCase()],
  ];

  it('the inactive and other-facility listings exist in the store (so their 404 hides something)', () => {
    expect(demo.db.prepare('SELECT active FROM listings WHERE id = ?').pluck().get(inactive)).toBe(0);
    expect(demo.db.prepare('SELECT facility_id FROM listings WHERE id = ?').pluck().get(otherFacility)).toBe('ber-1');
  });

  it('all answer the same 404, byte for byte', async () => {
    const replies = await Promise.all(unseen.map(([, id]) => call(demo.handler, `${LIST}/${id}`, { key: valid.key })));
    const reference = replies[0]!;
    expectProblem(reference, 404, 'not_found');
    replies.forEach((r, i) => {
      expect({ case: unseen[i]![0], status: r.status, body: r.text }).toEqual({
        case: unseen[i]![0],
        status: 404,
        body: reference.text,
      });
      expect(r.headers['content-type']).toBe(reference.headers['content-type']);
      expect(r.headers['content-length']).toBe(reference.headers['content-length']);
    });
    // Distinct requests, distinct ids: the body carries none.
    expect(new Set(replies.map((r) => r.headers['x-request-id'])).size).toBe(replies.length);
  });

  it('the listing itself is visible to a key of its own facility', async () => {
    const berKey = issueKey(demo.db, 'ber-1');
    expect((await call(demo.handler, `${LIST}/${otherFacility}`, { key: berKey.key })).status).toBe(200);
    expect((await call(demo.handler, `${LIST}/${own}`, { key: berKey.key })).status).toBe(404);
  });
});
