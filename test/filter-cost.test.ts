// Filtered lists are public work (a widget key sits in page source): a list made anew is charged to the key by the
// listings it passed over, while lists already made, and the whole list, cost one token as before.
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { LISTINGS_PER_TOKEN } from '../server/http/api/api.ts';
import { markedFacility } from './helpers/data.ts';
import { issueKey } from './helpers/fixture.ts';
import { OFF_LOOP_BYTES } from '../server/app.ts';
import { handlerOver, inject } from './helpers/inject.ts';
import { useDemoDb } from './helpers/setup.ts';

let key: string;
const LISTINGS = 1000;
const { json } = markedFacility('many', 'QXMANY', LISTINGS);
// Each test takes a handler of its own over this file: a fresh burst for the key.
const demo = useDemoDb({
  data: { facilities: [json] } as never,
  prepare: (db) => {
    key = issueKey(db, 'many', { rate_per_s: 0.001, burst: 60 }).key;
  },
});

const list = (handler: ReturnType<typeof handlerOver>, search = '', headers: Record<string, string> = {}) =>
  inject(handler, { url: `/external/listings${search}`, headers: { 'x-api-key': key, ...headers } });

describe('filtered lists', () => {
  it('a list made anew costs a token per 200 listings passed over, so a burst buys fewer of them', async () => {
    const handler = handlerOver(demo.file);
    try {
      const perNew = 1 + Math.floor(LISTINGS / LISTINGS_PER_TOKEN);
      const fits = Math.floor(60 / perNew);
      for (let i = 0; i < fits; i++)
        expect((await list(handler, `?min_area=${1 + i * 1.5}&sort=code`)).status).toBe(200);
      // A burst of 60 bought `fits` new lists; the same 60 tokens would have bought 60 lists already made.
      const refused = await list(handler, '?min_area=2.2&sort=-price');
      expect(refused.status).toBe(429);
      expect(refused.headers['content-type']).toBe('application/problem+json');
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    } finally {
      handler.close();
    }
  });

  it('values that pick the same listings answer the same bytes and ETag, in every coding', async () => {
    const handler = handlerOver(demo.file);
    try {
      // Areas are 1 + 1.5k: every range from (22, 23.5] to [23.5, 25) picks the units of 23.5 m² alone.
      const a = await list(handler, '?min_area=22.01&max_area=23.5', { 'accept-encoding': 'br' });
      const b = await list(handler, '?min_area=23.5&max_area=24.99', { 'accept-encoding': 'br' });
      expect(a.headers.etag).toBe(b.headers.etag);
      expect(a.headers['content-encoding']).toBe('br');
      const identity = await list(handler, '?min_area=22.7&max_area=24');
      expect(brotliDecompressSync(a.body).equals(identity.body)).toBe(true);
      expect(identity.headers.etag).toBe(a.headers.etag!.replace(/-br"$/, '"'));
      expect((await list(handler, '?min_area=22.7&max_area=25')).headers.etag).not.toBe(identity.headers.etag);
    } finally {
      handler.close();
    }
  });

  it('area bounds are areas a storage unit can have: 0 to 100000 m², at most 4 decimals', async () => {
    const handler = handlerOver(demo.file);
    try {
      for (const ok of ['0', '100000', '100000.0', '99999.9999', '7.5'])
        expect((await list(handler, `?max_area=${ok}`)).status, ok).toBe(200);
      for (const bad of ['100000.01', '100001', '1e3', '-1', '7.12345', '1234567']) {
        const r = await list(handler, `?min_area=${bad}`);
        expect(r.status, bad).toBe(400);
        expect(JSON.parse(r.body.toString()).code).toBe('invalid_parameter');
      }
    } finally {
      handler.close();
    }
  });

  it('a list made anew shows its cost in RateLimit; made once, it costs one token in every coding, 304s too', async () => {
    const handler = handlerOver(demo.file);
    try {
      const remaining = (r: { headers: Record<string, string | undefined> }) =>
        Number(/;r=(\d+);/.exec(r.headers.ratelimit!)![1]);
      const charge = Math.floor(LISTINGS / LISTINGS_PER_TOKEN);
      const identity = await list(handler, '?min_area=1.5');
      expect(identity.body.length).toBeGreaterThan(256 * 1024);
      expect(remaining(identity)).toBe(60 - 1 - charge);
      const again = await list(handler, '?min_area=1.5');
      expect(again.body.equals(identity.body)).toBe(true);
      expect(again.headers.etag).toBe(identity.headers.etag);
      expect(remaining(again)).toBe(60 - 2 - charge);
      const unchanged = await list(handler, '?min_area=1.5', { 'if-none-match': identity.headers.etag! });
      expect(unchanged.status).toBe(304);
      expect(remaining(unchanged)).toBe(60 - 3 - charge);
      // Another coding of the same result is made once more, and charged once more.
      const coded = await list(handler, '?min_area=1.5', { 'accept-encoding': 'br, gzip' });
      expect(coded.headers['content-encoding']).toBe('br');
      expect(brotliDecompressSync(coded.body).equals(identity.body)).toBe(true);
      expect(coded.headers.etag).toBe(identity.headers.etag!.replace(/"$/, '-br"'));
      expect(remaining(coded)).toBe(60 - 4 - 2 * charge);
      expect(JSON.parse(identity.body.toString()).listings.length).toBeGreaterThan(900);
    } finally {
      handler.close();
    }
  });

  it('a large cut is compressed in the thread pool and answered when done: the same bytes, ETag and headers', async () => {
    const handler = handlerOver(demo.file, { offLoopBytes: OFF_LOOP_BYTES });
    try {
      const get = (coding: string) => list(handler, '?min_area=1.5&sort=-price', { 'accept-encoding': coding });
      const made = handler.answer({
        method: 'GET',
        url: '/external/listings?min_area=1.5&sort=-price',
        headers: { 'x-api-key': key, 'accept-encoding': 'br' },
        remoteAddress: '127.0.0.1',
      });
      // Compressed off the event loop: the answer comes later; a second request meanwhile waits for the same one.
      expect(made.later).toBeInstanceOf(Promise);
      // Without a coding too: a large cut is made in steps, never in one go on the event loop.
      const plain = handler.answer({
        method: 'GET',
        url: '/external/listings?min_area=2.5&sort=-price',
        headers: { 'x-api-key': key },
        remoteAddress: '127.0.0.1',
      });
      expect(plain.later).toBeInstanceOf(Promise);
      const plainBody = (await plain.later!).body as Buffer;
      expect(JSON.parse(plainBody.toString()).listings.length).toBeGreaterThan(900);
      const [br, again, gzip, identity] = await Promise.all([
        made.later!.then((a) => ({ ...a, body: a.body as Buffer })),
        get('br'),
        get('gzip'),
        get('identity'),
      ]);
      for (const r of [br, again, gzip]) {
        expect(r.status).toBe(200);
        expect(r.headers.ratelimit).toMatch(/^"key";r=\d+;t=\d+$/);
        expect(r.headers['x-request-id']).toBeTruthy();
        expect(r.headers.vary).toContain('Accept-Encoding');
      }
      expect(br.headers.etag).toBe(identity.headers.etag!.replace(/"$/, '-br"'));
      expect(gzip.headers.etag).toBe(identity.headers.etag!.replace(/"$/, '-gz"'));
      expect(identity.body.length).toBeGreaterThan(256 * 1024);
      expect(brotliDecompressSync(br.body).equals(identity.body)).toBe(true);
      expect(again.body.equals(br.body)).toBe(true);
      expect(gunzipSync(gzip.body).equals(identity.body)).toBe(true);
    } finally {
      handler.close();
    }
  });
});
