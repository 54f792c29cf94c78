// Property-based fuzzing of the whole HTTP surface (OWASP API1/API2/API4) over raw sockets: generated methods, paths,
// encodings, headers, keys and query strings. Never a 5xx, never another facility's listing, every error problem+json;
// on a SQLite file, and on a node on PostgreSQL holding the same rows.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { join } from 'node:path';
import { applyImport } from '../server/store/facilities.ts';
import { parseImport } from '../server/domain/import.ts';
import { openDb } from '../server/store/db.ts';
import { revokeKey } from '../server/store/keys.ts';
import { copySqliteToPg } from '../server/store/pg/copy.ts';
import { Detail, ListResponse } from '../shared/listing.ts';
import { markedFacility, type GeneratedFacility } from './helpers/data.ts';
import { bareFacility } from './helpers/rental-info.ts';
import { issueKey, startTestServer, tempDir } from './helpers/fixture.ts';
import { problemFault } from './helpers/problem.ts';
import { headerOf, rawRequest, type RawReply } from './helpers/raw-http.ts';
import { startPostgres, type PgServer } from './helpers/postgres.ts';

const API = '/external/listings';
const INACTIVE = 'QXINACTIVE';
const ALLOWED_ORIGIN = 'https://alpha.example';
/** Requests per run: the issue asks for at least 10,000; most go to a server with limits raised, some to default limits. */
const RUNS_HIGH_LIMITS = 9_000;
const RUNS_DEFAULT_LIMITS = 1_500;
/** The same property against the PostgreSQL node: its answers come from a mirror of the database, read per batch. */
const RUNS_POSTGRES = 3_000;

let cleanup: () => void;
let fuzzServer: Awaited<ReturnType<typeof startTestServer>>;
let defaultServer: Awaited<ReturnType<typeof startTestServer>>;
let pgServer: Awaited<ReturnType<typeof startTestServer>>;
let pg: PgServer;
let A: GeneratedFacility;
let B: GeneratedFacility;
const keys = { a: '', b: '', revokedA: '', restrictedA: '' };
let sent = 0;

beforeAll(async () => {
  let dir: string;
  ({ dir, cleanup } = tempDir());
  const a = markedFacility('fuzz-a', 'QXALPHA', 6, 2, INACTIVE);
  const b = markedFacility('fuzz-b', 'QXBRAVO', 6, 2, INACTIVE);
  [A, B] = [a.facility, b.facility];
  const importFile = join(dir, 'import.json');
  writeFileSync(importFile, JSON.stringify({ facilities: [a.json, b.json] }));
  const file = join(dir, 'listings.db');
  const db = openDb(file);
  applyImport(db, parseImport(JSON.stringify({ facilities: [a.json, b.json] }), importFile));
  keys.a = issueKey(db, A.id).key;
  keys.b = issueKey(db, B.id).key;
  const revoked = issueKey(db, A.id);
  revokeKey(db, revoked.id);
  keys.revokedA = revoked.key;
  keys.restrictedA = issueKey(db, A.id, { allowed_origins: [ALLOWED_ORIGIN] }).key;
  db.close();
  const high = { rate: 1e9, burst: 1e9 };
  fuzzServer = await startTestServer(file, {
    authFailureLimit: high,
    defaultLimit: high,
    pageLimit: high,
    pageRenderLimit: high,
  });
  defaultServer = await startTestServer(file);
  pg = await startPostgres();
  const url = await pg.newDatabase();
  await copySqliteToPg(file, url);
  pgServer = await startTestServer(url, {
    authFailureLimit: high,
    defaultLimit: high,
    pageLimit: high,
    pageRenderLimit: high,
  });
});
afterAll(async () => {
  await fuzzServer?.close();
  await defaultServer?.close();
  await pgServer?.close();
  await pg?.close();
  cleanup?.();
});

// ---- generators ---------------------------------------------------------------------------------------------------

interface Req {
  method: string;
  target: string;
  version: '1.1' | '1.0';
  headers: [string, string][];
  body: string;
}

const HEX = '0123456789ABCDEFabcdef';
const alnum = fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789');
const printable = fc.string({
  unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)),
  maxLength: 60,
});
const tokenChars = fc.string({
  unit: fc.constantFrom(..."abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789!#$%&'*+-.^_`|~"),
  minLength: 1,
  maxLength: 20,
});

/** Built after beforeAll, from the generated facilities and the issued keys. */
function requestArbitrary(): fc.Arbitrary<Req> {
  const method = fc.oneof(
    { weight: 12, arbitrary: fc.constant('GET') },
    { weight: 3, arbitrary: fc.constantFrom('HEAD', 'OPTIONS') },
    {
      weight: 3,
      arbitrary: fc.constantFrom(
        'POST',
        'PUT',
        'DELETE',
        'PATCH',
        'TRACE',
        'PROPFIND',
        'SEARCH',
        'QUERY',
        'PURGE',
        'MKCOL',
        'LINK',
      ),
    },
    { weight: 1, arbitrary: fc.constantFrom('get', 'Get', 'FOO', 'G ET', 'GET\t', '', 'CONNECT', 'PRI') },
    { weight: 1, arbitrary: tokenChars },
  );

  /** Every route the server has, with ids of both facilities, inactive listings and the rental pages. */
  const knownPath = fc.oneof(
    { weight: 6, arbitrary: fc.constant(API) },
    {
      weight: 8,
      arbitrary: fc.constantFrom(...A.ids, ...B.ids, ...A.inactiveIds, ...B.inactiveIds).map((id) => `${API}/${id}`),
    },
    {
      weight: 2,
      arbitrary: fc.constantFrom(
        `${API}/`,
        `${API}/lst_`,
        `${API}/lst_00000000000000000000`,
        '/external',
        '/external/',
        '/external/listingsX',
      ),
    },
    {
      weight: 3,
      arbitrary: fc.constantFrom(
        '/',
        '/docs',
        '/docs/',
        '/openapi.json',
        '/healthz',
        '/favicon.ico',
        '/widget/storage-listings.js',
        '/assets/site.css',
        '/assets/docs.css',
        '/assets/favicon.svg',
        '/widget/',
        '/assets/',
      ),
    },
    {
      weight: 3,
      arbitrary: fc.constantFrom(
        ...[A, B].flatMap((f) => f.codes.map((c) => `/rent/${f.id}/${c}`)),
        `/rent/${A.id}/QXALPHA-off-0`,
        `/rent/${A.id}`,
        '/rent/',
        '/rent/x/y/z',
      ),
    },
  );

  /** Turns a path into another spelling of (maybe) the same thing: escapes, dot segments, slashes, case, unicode, length. */
  const mutation = fc.oneof(
    fc.constant((p: string) => p),
    fc.constant((p: string) => p.replace(/[a-z_]/g, (c) => `%${c.charCodeAt(0).toString(16)}`)),
    fc.constant((p: string) => p.replace(/\//g, '%2F')),
    fc.constant((p: string) => p.replace('/listings', '/./listings')),
    fc.constant((p: string) => p.replace('/listings', '/x/../listings')),
    fc.constant((p: string) => `/${p}`),
    fc.constant((p: string) => p.replace(/\//g, '//')),
    fc.constant((p: string) => `${p}/`),
    fc.constant((p: string) => `${p}/..`),
    fc.constant((p: string) => `${p}%00`),
    fc.constant((p: string) => `${p};param=1`),
    fc.constant((p: string) => `${p}#frag`),
    fc.constant((p: string) => p.toUpperCase()),
    fc.constant((p: string) => `http://127.0.0.1${p}`),
    fc.constant((p: string) => `${p}/%2e%2e/%2e%2e/%2e%2e/package.json`),
    fc.constant((p: string) => `${p}/..%2f..%2f..%2fpackage.json`),
    fc.constant((p: string) => `${p}${'a'.repeat(2100)}`),
    fc.constant((p: string) => `${p}${'/b'.repeat(9000)}`),
    fc.string({ unit: 'grapheme', minLength: 1, maxLength: 8 }).map((u) => (p: string) => `${p}${u}`),
    fc
      .string({ unit: 'grapheme', minLength: 1, maxLength: 8 })
      .map((u) => (p: string) => `${p}/${encodeURIComponent(u)}`),
    fc.tuple(fc.constantFrom(...HEX, 'G', 'z', '%', ''), fc.constantFrom(...HEX, 'G', '')).map(
      ([x, y]) =>
        (p: string) =>
          `${p}%${x}${y}`,
    ),
    fc.nat({ max: 40 }).map((n) => (p: string) => p.slice(0, n)),
  );

  const randomPath = fc.oneof(
    fc.webPath(),
    fc.string({ unit: 'grapheme', maxLength: 40 }).map((s) => `/${s}`),
    fc.string({ unit: 'binary-ascii', maxLength: 40 }).map((s) => `/${s}`),
    fc.webSegment().map((s) => `${API}/${s}`),
  );

  /** Keys in every state a partner or an attacker might send. */
  const keyChoice: fc.Arbitrary<string[]> = fc.oneof(
    { weight: 4, arbitrary: fc.constant<string[]>([]) },
    { weight: 8, arbitrary: fc.constant<string[]>([keys.a]) },
    { weight: 6, arbitrary: fc.constant<string[]>([keys.b]) },
    { weight: 2, arbitrary: fc.constant<string[]>([keys.revokedA]) },
    { weight: 3, arbitrary: fc.constant<string[]>([keys.restrictedA]) },
    { weight: 1, arbitrary: fc.constant<string[]>([keys.a, keys.b]) },
    { weight: 2, arbitrary: fc.string({ unit: alnum, minLength: 32, maxLength: 32 }).map((s) => [`svc_live_${s}`]) },
    { weight: 2, arbitrary: printable.map((s) => [s]) },
    {
      weight: 2,
      arbitrary: fc
        .constantFrom(
          (k: string) => k.slice(0, -1),
          (k: string) => `${k}x`,
          (k: string) => ` ${k} `,
          (k: string) => k.toUpperCase(),
          (k: string) => k.replace('svc_live_', 'svc_test_'),
          (k: string) => `Bearer ${k}`,
          (k: string) => k.slice(9),
        )
        .map((f) => [f(keys.a)]),
    },
    { weight: 1, arbitrary: fc.constant<string[]>(['']) },
  );

  const query = fc.oneof(
    { weight: 4, arbitrary: fc.constant('') },
    {
      weight: 4,
      arbitrary: fc
        .array(
          fc.tuple(
            fc.constantFrom('available', 'min_area', 'max_area', 'sort', 'Sort', 'min_area[]', 'api_key', 'x', ''),
            fc.oneof(
              fc.constantFrom(
                'true',
                'false',
                'price',
                '-price',
                'area',
                '-area',
                'code',
                '7.5',
                '0',
                '100000',
                '-1',
                '1e3',
                'NaN',
                '',
                '%ZZ',
                '%00',
                '10000000',
              ),
              fc.constant(keys.a),
              printable.map(encodeURIComponent),
            ),
          ),
          { maxLength: 4 },
        )
        .map((pairs) => `?${pairs.map(([k, v]) => `${k}=${v}`).join('&')}`),
    },
    { weight: 1, arbitrary: fc.webQueryParameters().map((q) => `?${q}`) },
    { weight: 1, arbitrary: printable.map((q) => `?${q.replace(/ /g, '+')}`) },
    { weight: 1, arbitrary: fc.constant(`?q=${'q'.repeat(3000)}`) },
  );

  const extraHeader = fc.oneof(
    fc.tuple(fc.constant('If-None-Match'), fc.oneof(fc.constantFrom('*', 'W/"x"', '"x", W/"y"', ''), printable)),
    fc.tuple(
      fc.constant('Accept'),
      fc.constantFrom('*/*', 'application/json', 'text/html', 'application/problem+json', 'image/*;q=0.1'),
    ),
    fc.tuple(fc.constant('Accept-Encoding'), fc.constantFrom('gzip, br', 'identity', '*')),
    fc.tuple(fc.constant('Range'), fc.constantFrom('bytes=0-10', 'bytes=-5', 'bytes=9999999-')),
    fc.tuple(fc.constant('Expect'), fc.constantFrom('100-continue', 'teapot')),
    fc.tuple(fc.constant('Upgrade'), fc.constantFrom('websocket', 'h2c')),
    fc.tuple(fc.constant('Connection'), fc.constantFrom('keep-alive', 'Upgrade', 'close, x-api-key')),
    fc.tuple(fc.constant('X-Forwarded-For'), fc.constantFrom('1.2.3.4', '127.0.0.1, 10.0.0.1', 'garbage')),
    fc.tuple(fc.constant('Host'), fc.constantFrom('evil.example', '', 'a b', '127.0.0.1:1')),
    fc.tuple(fc.constant('Transfer-Encoding'), fc.constantFrom('chunked', 'gzip', 'chunked, identity')),
    fc.tuple(fc.constant('Content-Length'), fc.constantFrom('0', '5', '-1', 'abc', '99999999999999999999')),
    fc.tuple(tokenChars, printable),
    fc.tuple(tokenChars, fc.string({ unit: 'binary', maxLength: 10 })),
  );

  return fc
    .record({
      method,
      path: fc.oneof(
        { weight: 6, arbitrary: fc.tuple(knownPath, mutation).map(([p, m]) => m(p)) },
        { weight: 1, arbitrary: randomPath },
      ),
      keyInPath: fc.oneof({ weight: 30, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }),
      query,
      key: keyChoice,
      origin: fc.oneof(
        { weight: 3, arbitrary: fc.constant<string[]>([]) },
        {
          weight: 2,
          arbitrary: fc.constantFrom<string[]>(
            [ALLOWED_ORIGIN],
            ['https://evil.example'],
            ['null'],
            ['HTTPS://ALPHA.EXAMPLE'],
            [`${ALLOWED_ORIGIN}, https://evil.example`],
            [''],
            [ALLOWED_ORIGIN, 'https://evil.example'],
          ),
        },
      ),
      headers: fc.array(extraHeader, { maxLength: 4 }),
      noHost: fc.oneof({ weight: 20, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }),
      version: fc.oneof(
        { weight: 10, arbitrary: fc.constant('1.1' as const) },
        { weight: 1, arbitrary: fc.constant('1.0' as const) },
      ),
      body: fc.oneof({ weight: 8, arbitrary: fc.constant('') }, { weight: 1, arbitrary: printable }),
    })
    .map((r) => {
      // A partner who pastes the key into the URL by mistake: the server must still never log it.
      const target = (r.keyInPath ? `${API}/${keys.a}` : r.path) + r.query;
      const headers: [string, string][] = [
        ...(r.noHost ? [] : [['Host', '127.0.0.1'] as [string, string]]),
        ...r.key.map((k) => ['X-API-Key', k] as [string, string]),
        ...r.origin.map((o) => ['Origin', o] as [string, string]),
        ...r.headers,
      ];
      if (r.body && !headers.some(([n]) => /^(content-length|transfer-encoding)$/i.test(n)))
        headers.push(['Content-Length', String(Buffer.byteLength(r.body))]);
      headers.push(['Connection', 'close']);
      return { method: r.method, target, version: r.version, headers, body: r.body };
    });
}

function bytesOf(r: Req): Buffer {
  const head = `${r.headers.map(([n, v]) => `${n}: ${v}\r\n`).join('')}\r\n`;
  return Buffer.concat([
    Buffer.from(`${r.method} `, 'latin1'),
    Buffer.from(r.target, 'utf8'),
    Buffer.from(` HTTP/${r.version}\r\n`, 'latin1'),
    Buffer.from(head, 'latin1'),
    Buffer.from(r.body, 'latin1'),
  ]);
}

// ---- the properties -------------------------------------------------------------------------------------------------

/** The facility whose data this request may see: only that of a valid key, sent once (spaces around a field value are not part of it, RFC 9110 5.5). */
function facilityOf(r: Req): GeneratedFacility | undefined {
  const sentKeys = r.headers.filter(([n]) => n.toLowerCase() === 'x-api-key').map(([, v]) => v.trim());
  if (sentKeys.length !== 1) return undefined;
  if (sentKeys[0] === keys.a || sentKeys[0] === keys.restrictedA) return A;
  if (sentKeys[0] === keys.b) return B;
  return undefined;
}

const HTML = 'text/html; charset=utf-8';
const KNOWN_TYPES = new Set([
  HTML,
  'application/json; charset=utf-8',
  'text/javascript; charset=utf-8',
  'text/css; charset=utf-8',
  'image/svg+xml',
  'image/png',
  'text/plain; charset=utf-8',
  'application/octet-stream',
]);

/** Every way this answer breaks the rules, or an empty list. */
function faults(r: Req, reply: RawReply, allowRateLimit: boolean): string[] {
  const out: string[] = [];
  const type = headerOf(reply, 'content-type');
  // Answers to `Accept-Encoding: gzip, br` are compressed: every check below reads the decoded bytes.
  const coding = headerOf(reply, 'content-encoding');
  const bytes =
    reply.body.length === 0
      ? reply.body
      : coding === 'br'
        ? brotliDecompressSync(reply.body)
        : coding === 'gzip'
          ? gunzipSync(reply.body)
          : reply.body;
  const body = bytes.toString('utf8');
  const path = r.target.split('?')[0]!;
  const isHead = r.method === 'HEAD';
  if (reply.status >= 500) out.push(`status ${reply.status}`);
  if (reply.status === 429 && !allowRateLimit) out.push('429 with limits raised');
  if (headerOf(reply, 'x-content-type-options') !== 'nosniff') out.push('no nosniff');
  if (headerOf(reply, 'server') !== undefined || headerOf(reply, 'x-powered-by') !== undefined)
    out.push('version banner');

  if (reply.status >= 400) {
    // The rental pages are for people: their 404 is an HTML page, not problem+json.
    const rentalPage404 = reply.status === 404 && type === HTML && path.startsWith('/rent/');
    if (!rentalPage404) {
      const fault = isHead
        ? type === 'application/problem+json'
          ? undefined
          : `HEAD error content-type ${type}`
        : problemFault(reply.status, type, body);
      if (fault) out.push(fault);
    }
  } else if (reply.status === 200 && !isHead) {
    if (!type || !KNOWN_TYPES.has(type)) out.push(`content-type ${type}`);
    if (path === API || path.startsWith(`${API}/`)) {
      const allowed = facilityOf(r);
      if (!allowed) out.push('API 200 without a valid key');
      if (type !== 'application/json; charset=utf-8') out.push(`API content-type ${type}`);
      try {
        const value = JSON.parse(body);
        const list = ListResponse.safeParse(value);
        const detail = Detail.safeParse(value);
        if (!list.success && !detail.success) out.push('API 200 body is neither a list nor a detail');
        if (list.success && list.data.facility.id !== allowed?.id)
          out.push(`list of ${list.data.facility.id} for ${allowed?.id}`);
        if (detail.success && !allowed?.ids.includes(detail.data.id))
          out.push(`detail ${detail.data.id} for ${allowed?.id}`);
      } catch {
        out.push('API 200 body is not JSON');
      }
    }
  }

  // No facility's listings for anyone but its own key; the rental pages are public by design, inactive listings are not.
  const mine = facilityOf(r);
  const text = bytes.toString('latin1') + body;
  if (text.includes(INACTIVE)) out.push('an inactive listing is shown');
  for (const f of [A, B]) {
    if (f === mine || path.startsWith('/rent/')) continue;
    if (text.includes(f.marker) || f.ids.some((id) => text.includes(id)))
      out.push(`${f.id}'s data in an answer for ${mine?.id ?? 'no valid key'}`);
  }
  if (echoesAKey(text)) out.push('a key is echoed in the body');
  return out;
}

/** Does the body hold the secret part of any of our keys? (A key never appears in an error body.) */
function echoesAKey(text: string): boolean {
  return Object.values(keys).some((k) => text.includes(k.slice(-32)));
}

async function exchange(port: number, r: Req, allowRateLimit: boolean): Promise<string[]> {
  sent++;
  let reply: RawReply;
  try {
    reply = await rawRequest(port, bytesOf(r), { timeoutMs: 15_000 });
  } catch (err) {
    return [`no answer: ${(err as Error).message}`];
  }
  return faults(r, reply, allowRateLimit);
}

const property = (port: () => number, allowRateLimit: boolean) =>
  fc.asyncProperty(requestArbitrary(), async (r) => {
    const found = await exchange(port(), r, allowRateLimit);
    if (found.length > 0)
      throw new Error(`${found.join('; ')}\n  request: ${JSON.stringify(bytesOf(r).toString('latin1').slice(0, 600))}`);
  });

describe('fuzzing the HTTP surface', () => {
  it(`${RUNS_HIGH_LIMITS + RUNS_DEFAULT_LIMITS} generated requests: no 5xx, no cross-facility data, every error problem+json`, async () => {
    const started = performance.now();
    // Limits raised: the handlers themselves are exercised, not just the 429.
    await fc.assert(
      property(() => fuzzServer.port, false),
      { numRuns: RUNS_HIGH_LIMITS, endOnFailure: false },
    );
    // Default limits: 401s quickly turn into 429s per address; those must be just as well-formed.
    await fc.assert(
      property(() => defaultServer.port, true),
      { numRuns: RUNS_DEFAULT_LIMITS },
    );
    const seconds = (performance.now() - started) / 1000;
    expect(sent).toBeGreaterThanOrEqual(10_000);
    if (process.env.LISTINGS_TEST_FIGURES)
      console.error(`fuzz: ${sent} requests in ${seconds.toFixed(1)} s (${Math.round(sent / seconds)}/s)`);
  }, 180_000);

  it(`${RUNS_POSTGRES} generated requests to a node on PostgreSQL with the same rows: the same guarantees`, async () => {
    const before = sent;
    await fc.assert(
      property(() => pgServer.port, false),
      { numRuns: RUNS_POSTGRES, endOnFailure: false },
    );
    expect(sent - before).toBeGreaterThanOrEqual(RUNS_POSTGRES);
  }, 120_000);

  it('the oracle flags what it must (another facility, a 5xx, a bare error, a missing nosniff)', () => {
    const req = (key: string): Req => ({
      method: 'GET',
      target: API,
      version: '1.1',
      headers: [
        ['Host', 'x'],
        ['X-API-Key', key],
      ],
      body: '',
    });
    const reply = (status: number, headers: Record<string, string>, body: string): RawReply => ({
      status,
      interim: [],
      body: Buffer.from(body),
      headers: Object.fromEntries(
        Object.entries({ 'x-content-type-options': 'nosniff', ...headers }).map(([k, v]) => [k, [v]]),
      ),
    });
    const listOf = (f: GeneratedFacility) => JSON.stringify({ facility: bareFacility(f.id, f.marker), listings: [] });
    const json = { 'content-type': 'application/json; charset=utf-8' };
    expect(faults(req(keys.a), reply(200, json, listOf(A)), false)).toEqual([]);
    expect(faults(req(keys.a), reply(200, json, listOf(B)), false).join()).toMatch(/fuzz-b's data/);
    expect(faults(req(keys.revokedA), reply(200, json, listOf(A)), false).join()).toMatch(/without a valid key/);
    expect(faults(req(keys.a), reply(500, { 'content-type': 'application/problem+json' }, '{}'), false).join()).toMatch(
      /status 500/,
    );
    expect(faults(req(keys.a), reply(404, { 'content-type': 'text/plain' }, 'nope'), false).join()).toMatch(
      /content-type/,
    );
    expect(
      faults(
        req(keys.a),
        { ...reply(200, json, listOf(A)), headers: { 'content-type': [json['content-type']] } },
        false,
      ).join(),
    ).toMatch(/nosniff/);
  });

  it('the generators reach every kind of answer (the property is not vacuous)', async () => {
    const statuses = new Map<number, number>();
    await fc.assert(
      fc.asyncProperty(requestArbitrary(), async (r) => {
        const reply = await rawRequest(fuzzServer.port, bytesOf(r), { timeoutMs: 15_000 });
        statuses.set(reply.status, (statuses.get(reply.status) ?? 0) + 1);
      }),
      { numRuns: 400, seed: 42 },
    );
    for (const s of [200, 400, 401, 403, 404, 405, 414])
      expect(statuses.get(s) ?? 0, `status ${s}: ${JSON.stringify([...statuses])}`).toBeGreaterThan(0);
  }, 60_000);
});
