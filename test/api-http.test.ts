// HTTP details of the API, through the handler: filters and sort, HEAD, OPTIONS, ETag/304, 405, unknown paths, CORS,
// caching headers.
import { beforeAll, describe, expect, it } from 'vitest';
import { listingIdOf } from '../server/domain/facility.ts';
import type { Summary } from '../shared/listing.ts';
import { issueKey } from './helpers/fixture.ts';
import { call, json, type CallOptions, type Reply } from './helpers/http.ts';
import { useDemoHandler } from './helpers/setup.ts';

let key: string;
let all: Summary[];
const LIST = '/external/listings';
const DETAIL = `${LIST}/${listingIdOf('wro-1', 'M-07')}`;
const demo = useDemoHandler({ prepare: (db) => void (key = issueKey(db, 'wro-1').key) });
beforeAll(async () => {
  all = json(await call(demo.handler, LIST, { key })).listings;
});

const get = (path: string, opts: CallOptions = {}) => call(demo.handler, path, { key, ...opts });
const codes = (r: Reply) => json(r).listings.map((l: Summary) => l.code);
const codesOf = (ls: Summary[]) => ls.map((l) => l.code);

describe('list filters and sort', () => {
  it('the demo facility has listings of several sizes, prices and availabilities', () => {
    expect(all.length).toBeGreaterThan(3);
    expect(all.some((l) => l.free_units === 0)).toBe(true);
    expect(all.some((l) => l.free_units > 0)).toBe(true);
  });

  it('available=true keeps listings with free units', async () => {
    const expected = codesOf(all.filter((l) => l.free_units > 0));
    expect(expected.length).toBeLessThan(all.length);
    expect(codes(await get(`${LIST}?available=true`))).toEqual(expected);
    expect(codes(await get(`${LIST}?available=false`))).toEqual(codesOf(all));
  });

  it('min_area and max_area are inclusive bounds', async () => {
    const areas = [...new Set(all.map((l) => l.area_m2))].sort((a, b) => a - b);
    const [lo, hi] = [areas[1]!, areas[areas.length - 2]!];
    const expected = codesOf(all.filter((l) => l.area_m2 >= lo && l.area_m2 <= hi));
    expect(expected.length).toBeLessThan(all.length);
    expect(codes(await get(`${LIST}?min_area=${lo}&max_area=${hi}`))).toEqual(expected);
    expect(codes(await get(`${LIST}?min_area=${lo}`))).toEqual(codesOf(all.filter((l) => l.area_m2 >= lo)));
    expect(codes(await get(`${LIST}?max_area=${lo}`))).toEqual(codesOf(all.filter((l) => l.area_m2 <= lo)));
    expect(codes(await get(`${LIST}?min_area=100000`))).toEqual([]);
  });

  const by =
    (f: (l: Summary) => number, desc = false) =>
    (a: Summary, b: Summary) =>
      desc ? f(b) - f(a) : f(a) - f(b);
  it.each([
    ['price', by((l) => l.price.gross)],
    ['-price', by((l) => l.price.gross, true)],
    ['area', by((l) => l.area_m2)],
    ['-area', by((l) => l.area_m2, true)],
    ['code', (a: Summary, b: Summary) => (a.code < b.code ? -1 : a.code > b.code ? 1 : 0)],
  ])('sort=%s orders the listings (ties in file order)', async (sort, compare) => {
    const expected = codesOf([...all].sort(compare));
    expect(expected).not.toEqual(codesOf(all));
    expect(codes(await get(`${LIST}?sort=${encodeURIComponent(sort)}`))).toEqual(expected);
  });

  it('combines a filter with a sort', async () => {
    const expected = codesOf(all.filter((l) => l.free_units > 0).sort(by((l) => l.price.gross, true)));
    expect(codes(await get(`${LIST}?sort=-price&available=true`))).toEqual(expected);
  });

  it.each([
    'available=yes',
    'available=',
    'available=TRUE',
    'min_area=abc',
    'min_area=-1',
    'min_area=',
    'max_area=1e3',
    'max_area=Infinity',
    'min_area=10&max_area=5',
    'sort=name',
    'sort=',
    'sort=PRICE',
    'sort=price&sort=area',
  ])('?%s is 400 invalid_parameter', async (query) => {
    const r = await get(`${LIST}?${query}`);
    expect(r.status).toBe(400);
    expect(r.headers['content-type']).toBe('application/problem+json');
    expect(json(r)).toMatchObject({ status: 400, code: 'invalid_parameter' });
    expect(r.headers['access-control-allow-origin']).toBe('*');
  });

  it('ignores unknown parameters: the same bytes and ETag as no parameters', async () => {
    const plain = await get(LIST);
    for (const q of ['?page=2', '?Sort=name&foo', '?utm_source=x&limit=1', '?']) {
      const r = await get(LIST + q);
      expect(r.status).toBe(200);
      expect(r.text).toBe(plain.text);
      expect(r.headers.etag).toBe(plain.headers.etag);
    }
  });
});

describe('methods', () => {
  const volatile = new Set(['date', 'x-request-id', 'ratelimit', 'keep-alive', 'connection']);
  const stable = (r: Reply) => Object.fromEntries(Object.entries(r.headers).filter(([h]) => !volatile.has(h)));

  it.each([
    ['list', LIST, undefined],
    ['detail', DETAIL, undefined],
    ['filtered list', `${LIST}?sort=price`, undefined],
    ['401', LIST, 'nope'],
    ['404', `${LIST}/lst_nope`, undefined],
  ])('HEAD %s: the headers of GET, content-length included, and no body', async (_name, path, badKey) => {
    const opts = badKey === undefined ? {} : { key: badKey };
    const g = await get(path, opts);
    const h = await get(path, { ...opts, method: 'HEAD' });
    expect(h.status).toBe(g.status);
    expect(h.text).toBe('');
    expect(Number(h.headers['content-length'])).toBe(Buffer.byteLength(g.text));
    expect(Number(h.headers['content-length'])).toBeGreaterThan(0);
    expect(stable(h)).toEqual(stable(g));
  });

  it.each([LIST, DETAIL])('OPTIONS %s (CORS preflight) needs no key: 204 with the CORS headers', async (path) => {
    const r = await call(demo.handler, path, {
      method: 'OPTIONS',
      headers: {
        origin: 'https://partner.example',
        'access-control-request-method': 'GET',
        // A browser polling with the ETag it was given sends it back: the preflight must allow If-None-Match too.
        'access-control-request-headers': 'x-api-key, if-none-match',
      },
    });
    expect(r.status).toBe(204);
    expect(r.text).toBe('');
    expect(r.headers['access-control-allow-origin']).toBe('*');
    // X-API-Key first, as the contract names it; If-None-Match beside it.
    expect(r.headers['access-control-allow-headers']).toBe('X-API-Key, If-None-Match');
    expect(r.headers['access-control-allow-methods']).toBe('GET, HEAD, OPTIONS');
    expect(r.headers['access-control-max-age']).toBe('7200');
  });

  it.each(['POST', 'PUT', 'DELETE', 'PATCH'] as const)('%s on the API paths is 405 with Allow', async (method) => {
    for (const path of [LIST, DETAIL]) {
      const r = await get(path, { method });
      expect(r.status).toBe(405);
      expect(r.headers.allow).toBe('GET, HEAD, OPTIONS');
      expect(json(r)).toMatchObject({ status: 405, code: 'method_not_allowed' });
      expect(r.headers['access-control-allow-origin']).toBe('*');
    }
  });

  it.each(['/nope', '/external', '/external/listingsX', '/external/other', '/api/listings'])(
    '%s is a 404 problem',
    async (path) => {
      const r = await get(path);
      expect(r.status).toBe(404);
      expect(r.headers['content-type']).toBe('application/problem+json');
      expect(json(r)).toMatchObject({ status: 404, code: 'not_found' });
    },
  );
});

describe('caching', () => {
  it.each([LIST, DETAIL, `${LIST}?available=true`])(
    '%s: strong ETag, If-None-Match gives 304 without a body',
    async (path) => {
      const first = await get(path);
      const etag = first.headers.etag!;
      expect(etag).toMatch(/^"[^"]+"$/);
      expect(first.headers['cache-control']).toBe('private, no-cache');
      expect(first.headers.vary).toBe('X-API-Key, Origin');
      for (const inm of [etag, `W/${etag}`, `"other", ${etag}`]) {
        const r = await get(path, { headers: { 'if-none-match': inm } });
        expect(r.status).toBe(304);
        expect(r.text).toBe('');
        expect(r.headers.etag).toBe(etag);
        expect(r.headers['cache-control']).toBe('private, no-cache');
        expect(r.headers.vary).toBe('X-API-Key, Origin');
      }
      expect((await get(path, { method: 'HEAD', headers: { 'if-none-match': etag } })).status).toBe(304);
      const changed = await get(path, { headers: { 'if-none-match': '"something-else"' } });
      expect(changed.status).toBe(200);
      expect(changed.text).toBe(first.text);
    },
  );

  it('different answers have different ETags', async () => {
    const tags = await Promise.all([LIST, DETAIL, `${LIST}?sort=price`].map(async (p) => (await get(p)).headers.etag));
    expect(new Set(tags).size).toBe(3);
  });
});

describe('every answer', () => {
  const CORS = {
    'access-control-allow-origin': '*',
    'access-control-allow-headers': 'X-API-Key, If-None-Match',
    'access-control-allow-methods': 'GET, HEAD, OPTIONS',
    'access-control-max-age': '7200',
    'access-control-expose-headers': 'ETag, Retry-After, RateLimit, RateLimit-Policy, X-Request-Id, X-Partner-Ref',
    vary: 'X-API-Key, Origin',
  };
  const requests: [string, string, CallOptions][] = [
    ['200 list', LIST, {}],
    ['200 detail', DETAIL, {}],
    ['304', DETAIL, { headers: { 'if-none-match': '*' } }],
    ['204 preflight', LIST, { method: 'OPTIONS', key: undefined }],
    ['400', `${LIST}?sort=x`, {}],
    ['401', LIST, { key: 'bad' }],
    ['404 listing', `${LIST}/x`, {}],
    ['404 path', '/nope', {}],
    ['405', LIST, { method: 'DELETE' }],
    ['414', `${LIST}?x=${'a'.repeat(3000)}`, {}],
    ['200 openapi', '/openapi.json', { key: undefined }],
    ['431 (headers too large for node:http)', LIST, { headers: { 'x-filler': 'a'.repeat(20_000) } }],
  ];

  it.each(requests)('%s carries the CORS headers and an X-Request-Id', async (_name, path, opts) => {
    const r = await call(demo.handler, path, { key, ...opts });
    expect(r.headers).toMatchObject(CORS);
    expect(r.headers['x-request-id']).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  });

  it('rental pages have an X-Request-Id too, and every id is new', async () => {
    const replies = await Promise.all([get('/rent/wro-1/M-07'), get('/rent/wro-1/nope'), get(LIST), get(LIST)]);
    const ids = replies.map((r) => r.headers['x-request-id']);
    expect(ids.every((id) => /^[0-9a-f-]{36}$/.test(id ?? ''))).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
