// A rental page is sent as little as it can be: a strong ETag per language and coding, 304 to an If-None-Match that
// holds it, and br or gzip by Accept-Encoding, as the API answers; Vary names both headers the page depends on.
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { inject } from './helpers/inject.ts';
import { useDemoHandler } from './helpers/setup.ts';

const demo = useDemoHandler();
const PATH = '/rent/wro-1/M-07';

const get = (headers: Record<string, string>) => inject(demo.handler, { method: 'GET', url: PATH, headers });

describe('a rental page', () => {
  it('is sent in br or gzip when the browser accepts it, with a strong ETag of its own per coding', async () => {
    const plain = await get({ 'accept-language': 'pl' });
    const br = await get({ 'accept-language': 'pl', 'accept-encoding': 'gzip, deflate, br, zstd' });
    const gz = await get({ 'accept-language': 'pl', 'accept-encoding': 'gzip' });
    expect([plain.status, br.status, gz.status]).toEqual([200, 200, 200]);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(br.headers['content-encoding']).toBe('br');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(brotliDecompressSync(br.body)).toEqual(plain.body);
    expect(gunzipSync(gz.body)).toEqual(plain.body);
    expect(br.body.length).toBeLessThan(plain.body.length / 3);
    const etags = [plain, br, gz].map((r) => r.headers.etag);
    for (const etag of etags) expect(etag).toMatch(/^"[^"]+"$/);
    expect(new Set(etags).size).toBe(3);
    for (const r of [plain, br, gz]) {
      expect(r.headers.vary).toBe('Accept-Language, Accept-Encoding');
      expect(r.headers['cache-control']).toBe('no-cache');
    }
  });

  it('answers 304 without a body to an If-None-Match that holds its ETag, and 200 to another', async () => {
    const first = await get({ 'accept-language': 'de', 'accept-encoding': 'br' });
    const again = await get({ 'accept-language': 'de', 'accept-encoding': 'br', 'if-none-match': first.headers.etag! });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    expect(again.headers.etag).toBe(first.headers.etag);
    expect(again.headers.vary).toBe('Accept-Language, Accept-Encoding');
    // Another language or coding is another page: the ETag of the German br page does not hold for English gzip.
    const other = await get({
      'accept-language': 'en',
      'accept-encoding': 'gzip',
      'if-none-match': first.headers.etag!,
    });
    expect(other.status).toBe(200);
    expect(other.headers.etag).not.toBe(first.headers.etag);
  });
});
