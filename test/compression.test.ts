// Compressed answers: br and gzip when the client accepts them, made once and kept, with an ETag per coding.
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { listingIdOf } from '../server/domain/facility.ts';
import { issueKey } from './helpers/fixture.ts';
import { inject } from './helpers/inject.ts';
import { useDemoHandler } from './helpers/setup.ts';
import { chunksIn } from '../tools/browser-bundle.ts';
import { REPO_ROOT } from '../server/repo.ts';

/** The widget's core chunk: Lit and everything the entry's element needs, the bulk of its bytes. */
const WIDGET_CORE = `/widget/${chunksIn(`${REPO_ROOT}/dist/widget`).find((c) => c.startsWith('chunks/core-'))}`;

const LIST = '/external/listings';
const DETAIL = `${LIST}/${listingIdOf('wro-1', 'M-07')}`;

interface Raw {
  status: number;
  headers: Record<string, string>;
  bytes: Buffer;
}

let key: string;
const demo = useDemoHandler({ prepare: (db) => void (key = issueKey(db, 'wro-1').key) });

/** One request through the handler; the body as the bytes it would put on the wire. */
async function raw(path: string, headers: Record<string, string> = {}, method: 'GET' | 'HEAD' = 'GET'): Promise<Raw> {
  const r = await inject(demo.handler, { method, url: path, headers: { 'x-api-key': key, ...headers } });
  return { status: r.status, headers: r.headers, bytes: r.body };
}

const decode = (r: Raw) =>
  r.headers['content-encoding'] === 'br'
    ? brotliDecompressSync(r.bytes)
    : r.headers['content-encoding'] === 'gzip'
      ? gunzipSync(r.bytes)
      : r.bytes;
const varyOf = (r: Raw) => (r.headers.vary ?? '').split(',').map((v) => v.trim().toLowerCase());

/** What RFC 9110 15.4.5 lets a 304 carry, plus our request id, the key's ref, CORS and rate-limit headers. */
const NOT_MODIFIED_ALLOWED =
  /^(cache-control|content-location|date|etag|expires|vary|x-request-id|x-partner-ref|x-content-type-options|access-control-.*|ratelimit.*|connection|keep-alive)$/;

describe.each([LIST, DETAIL, `${LIST}?sort=price`])('API %s', (path) => {
  it('br and gzip decode to the same JSON as identity; each coding has its own ETag and its own 304', async () => {
    const identity = await raw(path);
    expect(identity.status).toBe(200);
    expect(identity.headers['content-encoding']).toBeUndefined();
    const tags = new Set([identity.headers.etag]);
    for (const [accept, coding] of [
      ['br, gzip', 'br'],
      ['gzip', 'gzip'],
      ['gzip;q=1, br;q=0.5', 'gzip'],
      ['br;q=0, gzip;q=0', undefined],
    ] as const) {
      const r = await raw(path, { 'accept-encoding': accept });
      expect(r.status).toBe(200);
      expect(r.headers['content-encoding']).toBe(coding);
      expect(Number(r.headers['content-length'])).toBe(r.bytes.length);
      expect(JSON.parse(decode(r).toString())).toEqual(JSON.parse(identity.bytes.toString()));
      expect(varyOf(r)).toEqual(['x-api-key', 'origin', 'accept-encoding']);
      expect(r.headers.etag).toMatch(/^"[^"]+"$/);
      if (coding) {
        expect(r.bytes.length).toBeLessThan(identity.bytes.length);
        expect(r.headers.etag).toBe(identity.headers.etag!.replace(/"$/, coding === 'br' ? '-br"' : '-gz"'));
      } else expect(r.headers.etag).toBe(identity.headers.etag);
      tags.add(r.headers.etag);
      const again = await raw(path, { 'accept-encoding': accept, 'if-none-match': r.headers.etag! });
      expect(again.status).toBe(304);
      expect(again.bytes.length).toBe(0);
      expect(again.headers.etag).toBe(r.headers.etag);
      // Another coding's ETag does not match this coding's answer.
      if (coding)
        expect((await raw(path, { 'accept-encoding': accept, 'if-none-match': identity.headers.etag! })).status).toBe(
          200,
        );
    }
    expect(tags.size).toBe(3);
  });

  it('the same compressed bytes every time (made once), and HEAD answers the headers of GET', async () => {
    const a = await raw(path, { 'accept-encoding': 'br' });
    const b = await raw(path, { 'accept-encoding': 'br' });
    expect(b.bytes.equals(a.bytes)).toBe(true);
    const head = await raw(path, { 'accept-encoding': 'br' }, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.bytes.length).toBe(0);
    const PER_ANSWER = new Set(['x-request-id', 'date', 'ratelimit', 'connection', 'keep-alive']);
    const stable = (r: Raw) => Object.fromEntries(Object.entries(r.headers).filter(([name]) => !PER_ANSWER.has(name)));
    expect(stable(head)).toEqual(stable(a));
  });

  it('no Accept-Encoding: identity, and Vary as the contract has it', async () => {
    const r = await raw(path);
    expect(r.headers['content-encoding']).toBeUndefined();
    expect(r.headers.vary).toBe('X-API-Key, Origin');
    expect(Number(r.headers['content-length'])).toBe(r.bytes.length);
  });

  it('a 304 carries only the fields RFC 9110 15.4.5 lists (and CORS, rate limit, request id)', async () => {
    for (const accept of [undefined, 'br, gzip']) {
      const extra: Record<string, string> = accept ? { 'accept-encoding': accept } : {};
      const first = await raw(path, extra);
      const r = await raw(path, { ...extra, 'if-none-match': first.headers.etag! });
      expect(r.status).toBe(304);
      for (const name of Object.keys(r.headers)) expect(name).toMatch(NOT_MODIFIED_ALLOWED);
      expect(r.headers.etag).toBe(first.headers.etag);
      expect(r.headers['cache-control']).toBe('private, no-cache');
      expect(r.headers.vary).toBe(first.headers.vary);
      expect(r.headers['x-request-id']).toBeDefined();
      expect(r.headers['access-control-allow-origin']).toBe('*');
    }
  });
});

describe('static files, precompressed', () => {
  it.each([WIDGET_CORE, '/assets/site.css', '/assets/docs.css', '/openapi.json'])('%s', async (path) => {
    const identity = await raw(path);
    expect(identity.status).toBe(200);
    expect(identity.headers['content-encoding']).toBeUndefined();
    for (const coding of ['br', 'gzip']) {
      const r = await raw(path, { 'accept-encoding': coding });
      expect(r.status).toBe(200);
      expect(r.headers['content-encoding']).toBe(coding);
      expect(r.bytes.length).toBeLessThan(identity.bytes.length / 2);
      expect(decode(r).equals(identity.bytes)).toBe(true);
      expect(varyOf(r)).toContain('accept-encoding');
      expect(r.headers.etag).not.toBe(identity.headers.etag);
      expect(r.headers['content-type']).toBe(identity.headers['content-type']);
      const again = await raw(path, { 'accept-encoding': coding });
      expect(again.bytes.equals(r.bytes)).toBe(true);
      const notModified = await raw(path, { 'accept-encoding': coding, 'if-none-match': r.headers.etag! });
      expect(notModified.status).toBe(304);
      for (const name of Object.keys(notModified.headers)) expect(name).toMatch(NOT_MODIFIED_ALLOWED);
      const head = await raw(path, { 'accept-encoding': coding }, 'HEAD');
      expect(head.headers['content-length']).toBe(r.headers['content-length']);
      expect(head.headers['content-encoding']).toBe(coding);
    }
  });

  it('the widget bundle goes out at under 40 % of its (minified) size, as br when both are accepted', async () => {
    const identity = await raw(WIDGET_CORE);
    const r = await raw(WIDGET_CORE, { 'accept-encoding': 'br, gzip' });
    expect(r.headers['content-encoding']).toBe('br');
    expect(r.bytes.length).toBeLessThan(identity.bytes.length * 0.4);
  });
});
