// Server hardening: URL and header size limits (414, 431), malformed requests answered as problem+json, nosniff on every
// answer, CSP / Referrer-Policy / frame rules on HTML pages, no version banner, Node's server limits set.
import { Agent, get } from 'node:http';
import { beforeAll, describe, expect, it } from 'vitest';
import { MAX_URL_LENGTH } from '../server/http/transport/answer.ts';
import { listingIdOf } from '../server/domain/facility.ts';
import { issueKey } from './helpers/fixture.ts';
import { useDemoServer } from './helpers/setup.ts';
import { problemFault } from './helpers/problem.ts';
import { headerOf, rawGet, rawRequest, type RawReply } from './helpers/raw-http.ts';

const LIST = '/external/listings';
let key: string;
const demo = useDemoServer({
  prepare: (db) => void (key = issueKey(db, 'wro-1').key),
  app: { authFailureLimit: { rate: 10_000, burst: 10_000 } },
});

const send = (bytes: string) => rawRequest(demo.app.port, bytes);
const bodyText = (r: RawReply) => r.body.toString('utf8');

function expectProblem(r: RawReply, status: number, code?: string) {
  expect(r.status).toBe(status);
  expect(problemFault(status, headerOf(r, 'content-type'), bodyText(r))).toBeUndefined();
  if (code) expect(JSON.parse(bodyText(r)).code).toBe(code);
}

/** Every kind of answer the server gives, from the handler and from below it. */
const EVERY_ANSWER: [string, string][] = [
  ['API 200', rawGet(LIST, { 'X-API-Key': 'KEY' })],
  ['API detail 200', rawGet(`${LIST}/${listingIdOf('wro-1', 'M-07')}`, { 'X-API-Key': 'KEY' })],
  ['API 304', rawGet(LIST, { 'X-API-Key': 'KEY', 'If-None-Match': '*' })],
  ['API HEAD', rawGet(LIST, { 'X-API-Key': 'KEY' }, 'HEAD')],
  ['API 400', rawGet(`${LIST}?sort=nope`, { 'X-API-Key': 'KEY' })],
  ['API 401', rawGet(LIST)],
  ['API 404', rawGet(`${LIST}/lst_00000000000000000000`, { 'X-API-Key': 'KEY' })],
  ['API 405', rawGet(LIST, {}, 'DELETE')],
  ['OPTIONS 204', rawGet(LIST, { Origin: 'https://a.example' }, 'OPTIONS')],
  ['414', rawGet('/' + 'a'.repeat(MAX_URL_LENGTH))],
  ['/', rawGet('/')],
  ['/docs', rawGet('/docs')],
  ['/openapi.json', rawGet('/openapi.json')],
  ['/healthz', rawGet('/healthz')],
  ['/favicon.ico', rawGet('/favicon.ico')],
  ['widget', rawGet('/widget/storage-listings.js')],
  ['asset', rawGet('/assets/site.css')],
  ['rental page', rawGet('/rent/wro-1/M-07')],
  ['rental 404', rawGet('/rent/wro-1/NOPE')],
  ['404', rawGet('/nothing/here')],
  ['431', `GET / HTTP/1.1\r\nHost: x\r\nX-Big: ${'b'.repeat(20_000)}\r\nConnection: close\r\n\r\n`],
  ['400 bad method', 'FOO / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'],
  ['400 bad header', 'GET / HTTP/1.1\r\nHost: x\r\nNo colon here\r\nConnection: close\r\n\r\n'],
  ['400 no Host', 'GET / HTTP/1.1\r\nConnection: close\r\n\r\n'],
  ['CONNECT', 'CONNECT 127.0.0.1:80 HTTP/1.1\r\nHost: 127.0.0.1:80\r\nConnection: close\r\n\r\n'],
  ['odd Expect', rawGet('/', { Expect: 'teapot' })],
];

describe('URL length', () => {
  it(`a URL over ${MAX_URL_LENGTH} characters is 414 uri_too_long problem+json, with a key or without, on any route`, async () => {
    const long = 'x'.repeat(MAX_URL_LENGTH);
    for (const path of [`${LIST}/${long}`, `${LIST}?q=${long}`, `/${long}`, `/rent/wro-1/${long}`]) {
      expectProblem(await send(rawGet(path, { 'X-API-Key': key })), 414, 'uri_too_long');
      expectProblem(await send(rawGet(path)), 414, 'uri_too_long');
    }
    const head = await send(rawGet(`/${long}`, {}, 'HEAD'));
    expect(head.status).toBe(414);
    expect(head.body.length).toBe(0);
  });

  it(`exactly ${MAX_URL_LENGTH} characters is still served`, async () => {
    const path = `${LIST}?pad=${'p'.repeat(MAX_URL_LENGTH - LIST.length - 5)}`;
    expect(path.length).toBe(MAX_URL_LENGTH);
    expect((await send(rawGet(path, { 'X-API-Key': key }))).status).toBe(200);
  });

  it('a URL longer than the whole header limit is refused as well (431), not served', async () => {
    expectProblem(await send(rawGet(`/${'y'.repeat(20_000)}`)), 431);
  });
});

describe('header size', () => {
  it('headers over 16 KiB, in one field or many, are 431 problem+json and the connection closes', async () => {
    const one = await send(
      `GET ${LIST} HTTP/1.1\r\nHost: x\r\nX-API-Key: ${key}\r\nX-Big: ${'b'.repeat(17 * 1024)}\r\n\r\n`,
    );
    expectProblem(one, 431);
    expect(headerOf(one, 'connection')).toBe('close');
    const many = Array.from({ length: 400 }, (_, i) => `X-H${i}: ${'v'.repeat(40)}\r\n`).join('');
    expectProblem(await send(`GET / HTTP/1.1\r\nHost: x\r\n${many}\r\n`), 431);
  });

  it('15 KiB of headers is served', async () => {
    const r = await send(rawGet(LIST, { 'X-API-Key': key, 'X-Pad': 'p'.repeat(15 * 1024) }));
    expect(r.status).toBe(200);
  });
});

describe('malformed requests get an answer a client can read', () => {
  it.each([
    ['an unknown method', 'FOO / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'],
    ['a lower-case method', 'get / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'],
    ['a header line without a colon', 'GET / HTTP/1.1\r\nHost: x\r\nNo colon here\r\nConnection: close\r\n\r\n'],
    ['a control character in the path', 'GET /\x01 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'],
    ['an unknown HTTP version', 'GET / HTTP/3.0\r\nHost: x\r\nConnection: close\r\n\r\n'],
    ['an HTTP/2 preface', 'PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n'],
    [
      'both Content-Length and chunked',
      `GET ${LIST} HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n`,
    ],
    ['no Host header in HTTP/1.1', 'GET / HTTP/1.1\r\nConnection: close\r\n\r\n'],
  ])('%s: 400 problem+json', async (_name, bytes) => {
    expectProblem(await send(bytes), 400);
  });

  it('CONNECT (no proxying here): 405 problem+json', async () => {
    expectProblem(
      await send('CONNECT 127.0.0.1:80 HTTP/1.1\r\nHost: 127.0.0.1:80\r\nConnection: close\r\n\r\n'),
      405,
      'method_not_allowed',
    );
  });

  it('an Expect other than 100-continue does not bypass the handler', async () => {
    const r = await send(rawGet(LIST, { 'X-API-Key': key, Expect: 'teapot' }));
    expect(r.status).toBe(200);
    expect(JSON.parse(bodyText(r)).facility.id).toBe('wro-1');
  });

  const bytes = 'z'.repeat(64 * 1024);
  it.each([
    ['Content-Length', { 'Content-Length': '1000000000' }, bytes],
    ['chunked', { 'Transfer-Encoding': 'chunked' }, `10000\r\n${bytes}\r\n`],
    ['Expect: 100-continue', { 'Content-Length': '1000000000', Expect: '100-continue' }, ''],
  ])(
    'a GET that declares a body (%s) is refused at once, the connection closed, no 100 Continue',
    async (_n, h, body) => {
      const r = await send(rawGet(LIST, { 'X-API-Key': key, ...h }) + body);
      expectProblem(r, 400, 'bad_request');
      expect(JSON.parse(bodyText(r)).detail).toBe('This server takes no request body.');
      expect(r.interim).toEqual([]);
      expect(headerOf(r, 'connection')).toBe('close');
    },
  );

  it('a listing id with percent-escapes is the same listing; a malformed escape is a 404', async () => {
    const id = listingIdOf('wro-1', 'M-07');
    const plain = await send(rawGet(`${LIST}/${id}`, { 'X-API-Key': key }));
    const escaped = await send(rawGet(`${LIST}/%${id.charCodeAt(0).toString(16)}${id.slice(1)}`, { 'X-API-Key': key }));
    expect([plain.status, escaped.status]).toEqual([200, 200]);
    expect(bodyText(escaped)).toBe(bodyText(plain));
    expectProblem(await send(rawGet(`${LIST}/${id}%E0%A4%A`, { 'X-API-Key': key })), 404, 'not_found');
  });

  it('a GET with Content-Length: 0 is a GET', async () => {
    const r = await send(rawGet(LIST, { 'X-API-Key': key, 'Content-Length': '0' }));
    expect(r.status).toBe(200);
  });

  it('an absolute-form target (RFC 9112 3.2.2) is read as its path and query', async () => {
    const r = await send(rawGet(`http://127.0.0.1:${demo.app.port}${LIST}?sort=price`, { 'X-API-Key': key }));
    expect(r.status).toBe(200);
    expect(JSON.parse(bodyText(r)).facility.id).toBe('wro-1');
  });

  it('a request body is never read: a 1 MB POST is refused at once', async () => {
    const r = await send(
      `POST ${LIST} HTTP/1.1\r\nHost: x\r\nContent-Length: 1048576\r\nConnection: close\r\n\r\n${'z'.repeat(1024 * 1024)}`,
    );
    expectProblem(r, 405, 'method_not_allowed');
  });
});

describe('headers on every answer', () => {
  let replies: [string, RawReply][];
  beforeAll(async () => {
    replies = [];
    for (const [name, bytes] of EVERY_ANSWER) replies.push([name, await send(bytes.replace('KEY', key))]);
  });

  it('covers answers from the handler and from below it', () => {
    const statuses = new Set(replies.map(([, r]) => r.status));
    for (const s of [200, 204, 304, 400, 401, 404, 405, 414, 431]) expect(statuses).toContain(s);
  });

  it('X-Content-Type-Options: nosniff everywhere', () => {
    for (const [name, r] of replies) expect(headerOf(r, 'x-content-type-options'), name).toBe('nosniff');
  });

  it('no Server or X-Powered-By banner anywhere', () => {
    for (const [name, r] of replies) {
      expect(headerOf(r, 'server'), name).toBeUndefined();
      expect(headerOf(r, 'x-powered-by'), name).toBeUndefined();
    }
  });

  it('every error is problem+json, except the rental page 404, which is a page for people', () => {
    for (const [name, r] of replies) {
      if (r.status < 400) continue;
      if (name === 'rental 404') expect(headerOf(r, 'content-type')).toMatch(/^text\/html/);
      else expect(problemFault(r.status, headerOf(r, 'content-type'), bodyText(r)), name).toBeUndefined();
    }
  });
});

describe('HTML pages', () => {
  const PAGES = ['/', '/docs', '/rent/wro-1/M-07', '/rent/wro-1/NOPE'];

  function directives(csp: string): Map<string, string[]> {
    return new Map(
      csp
        .split(';')
        .map((d) => d.trim().split(/\s+/))
        .filter((d) => d[0])
        .map(([name, ...values]) => [name!.toLowerCase(), values]),
    );
  }

  it.each(PAGES)('%s has a strict CSP, a Referrer-Policy and may not be framed', async (path) => {
    const r = await send(rawGet(path));
    expect(headerOf(r, 'content-type')).toMatch(/^text\/html; charset=utf-8$/);
    const csp = directives(headerOf(r, 'content-security-policy') ?? '');
    expect(csp.get('default-src')).toEqual(["'none'"]);
    const scripts = csp.get('script-src') ?? [];
    expect(scripts).toContain("'self'");
    for (const loose of ["'unsafe-inline'", "'unsafe-eval'", '*', 'http:', 'https:', 'data:'])
      expect(scripts).not.toContain(loose);
    expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
    expect(csp.get('base-uri')).toEqual(["'none'"]);
    expect(csp.get('form-action')).toEqual(["'none'"]);
    expect(headerOf(r, 'x-frame-options')).toBe('DENY');
    expect(['no-referrer', 'same-origin', 'strict-origin', 'strict-origin-when-cross-origin']).toContain(
      headerOf(r, 'referrer-policy'),
    );
    expect(headerOf(r, 'x-content-type-options')).toBe('nosniff');
    // The CSP allows no inline script, so the page must not need one (JSON-LD is data, never run).
    const inline = [...bodyText(r).matchAll(/<script(?![^>]*\bsrc=)([^>]*)>/g)].map((m) => m[1]);
    for (const attrs of inline) expect(attrs).toMatch(/type="application\/ld\+json"/);
  });
});

describe("Node's server limits", () => {
  it('headers, request and keep-alive timeouts and a connection cap are set', () => {
    expect(demo.app.server.headersTimeout).toBeGreaterThan(0);
    expect(demo.app.server.headersTimeout).toBeLessThanOrEqual(30_000);
    expect(demo.app.server.requestTimeout).toBeGreaterThan(0);
    expect(demo.app.server.requestTimeout).toBeLessThanOrEqual(60_000);
    expect(demo.app.server.keepAliveTimeout).toBeGreaterThan(0);
    expect(demo.app.server.maxConnections).toBeGreaterThan(0);
    expect(demo.app.server.maxConnections).toBeLessThanOrEqual(100_000);
    // Node checks the two timeouts this often: with its 30 s default a slow head could run to 40 s.
    expect((demo.app.server as unknown as { connectionsCheckingInterval: number }).connectionsCheckingInterval).toBe(
      1_000,
    );
  });

  it('the keep-alive timeout is announced in Keep-Alive, as docs/api.md tells pooling clients', async () => {
    const header = await new Promise<string | undefined>((resolve, reject) => {
      const agent = new Agent({ keepAlive: true });
      get(`http://127.0.0.1:${demo.app.port}${LIST}`, { agent, headers: { 'X-API-Key': key } }, (res) => {
        res.resume();
        res.on('end', () => {
          agent.destroy();
          resolve(res.headers['keep-alive'] as string | undefined);
        });
      }).on('error', reject);
    });
    expect(header).toBe(`timeout=${demo.app.server.keepAliveTimeout / 1000}`);
    expect(demo.app.server.keepAliveTimeout).toBe(5_000);
  });
});
