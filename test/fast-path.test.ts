// The API's fast path (cached bodies, pre-built headers, cached keys) changes nothing a partner can see: tried against
// the real `listings serve` process while the real CLI changes the data from other processes.
import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listingIdOf } from '../server/domain/facility.ts';
import {
  cli,
  demoJson,
  grossOfM07,
  issueKey,
  servedDemo,
  startTestServer,
  writeJson,
  type ServedDemo,
} from './helpers/fixture.ts';
import { call, json } from './helpers/http.ts';
import { until } from './helpers/wait.ts';

const LIST = '/external/listings';
const PATHS = [LIST, `${LIST}?sort=price`, `${LIST}/${listingIdOf('wro-1', 'M-07')}`];

let demo: ServedDemo;
beforeAll(async () => {
  demo = await servedDemo();
});
afterAll(() => demo.close());

describe('cached answers', () => {
  it('carry every header the contract asks for, on 200, HEAD and 304 alike', async () => {
    const first = await call(demo.base, LIST, { key: demo.reader.key });
    const head = await call(demo.base, LIST, { key: demo.reader.key, method: 'HEAD' });
    const notModified = await call(demo.base, LIST, {
      key: demo.reader.key,
      headers: { 'if-none-match': first.headers.etag! },
    });
    expect([first.status, head.status, notModified.status]).toEqual([200, 200, 304]);
    const contract = [
      'access-control-allow-origin',
      'access-control-allow-headers',
      'access-control-allow-methods',
      'access-control-max-age',
      'access-control-expose-headers',
      'vary',
      'cache-control',
      'etag',
      'ratelimit-policy',
      'ratelimit',
      'x-request-id',
      'x-content-type-options',
    ];
    for (const r of [first, head, notModified]) {
      expect(Object.keys(r.headers)).toEqual(
        expect.arrayContaining(r === notModified ? contract : [...contract, 'content-type']),
      );
      expect(r.headers.etag).toBe(first.headers.etag);
      expect(r.headers.vary).toBe('X-API-Key, Origin');
      expect(r.headers['cache-control']).toBe('private, no-cache');
    }
    expect(Number(head.headers['content-length'])).toBe(Buffer.byteLength(first.text));
    expect(head.text).toBe('');
    // A 304 carries no representation metadata (RFC 9110 15.4.5).
    expect(notModified.headers['content-length']).toBeUndefined();
    expect(notModified.headers['content-type']).toBeUndefined();
  });

  it('every answer has its own request id', async () => {
    const replies = await Promise.all(
      Array.from({ length: 40 }, (_, i) => call(demo.base, PATHS[i % PATHS.length]!, { key: demo.reader.key })),
    );
    const ids = replies.map((r) => r.headers['x-request-id']);
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("keys of one facility share its cached bodies, and each answer still carries its own key's headers", async () => {
    // A key with its own limit and an origin-restricted key, asked for the same bodies in turn with the reader's key:
    // the header lists the API keeps per body must not carry one key's limit or CORS into another's answer.
    const limited = issueKey(demo.db, 'wro-1', { rate_per_s: 3, burst: 9 });
    const partner = 'https://partner.example';
    const restricted = issueKey(demo.db, 'wro-1', { allowed_origins: [partner] });
    const plain = 'X-API-Key, Origin';
    const askers: {
      key: string;
      q: number | 'default';
      origin: string;
      vary: string;
      headers?: Record<string, string>;
    }[] = [
      { key: demo.reader.key, q: 'default', origin: '*', vary: plain },
      // The same body (identity) for a request that sent Accept-Encoding: its Vary names the coding.
      {
        key: demo.reader.key,
        q: 'default',
        origin: '*',
        vary: `${plain}, Accept-Encoding`,
        headers: { 'accept-encoding': 'identity' },
      },
      { key: limited.key, q: 9, origin: '*', vary: plain },
      { key: restricted.key, q: 'default', origin: partner, vary: plain, headers: { origin: partner } },
    ];
    const defaultQ = sfParams((await call(demo.base, LIST, { key: demo.reader.key })).headers['ratelimit-policy']).q;
    for (const path of [PATHS[0]!, PATHS[2]!]) {
      const etag = (await call(demo.base, path, { key: demo.reader.key })).headers.etag!;
      for (let round = 0; round < 2; round++) {
        for (const a of askers) {
          for (const inm of [undefined, etag]) {
            const r = await call(demo.base, path, {
              key: a.key,
              headers: { ...a.headers, ...(inm && { 'if-none-match': inm }) },
            });
            expect(r.status).toBe(inm ? 304 : 200);
            expect(r.headers.etag).toBe(etag);
            expect(sfParams(r.headers['ratelimit-policy']).q).toBe(a.q === 'default' ? defaultQ : a.q);
            expect(r.headers['access-control-allow-origin']).toBe(a.origin);
            expect(r.headers.vary).toBe(a.vary);
          }
        }
      }
    }
  });
});

/** The parameters of a structured-field item such as RateLimit-Policy's `"key";q=100;w=5`. */
function sfParams(value: string | undefined): Record<string, number> {
  return Object.fromEntries(
    (value ?? '')
      .split(';')
      .slice(1)
      .map((p) => p.split('=') as [string, string])
      .map(([k, v]) => [k, Number(v)]),
  );
}

describe('changes by another process reach the next request', () => {
  it('an import: an ETag from before it no longer matches, for every cached answer; the new price is served', async () => {
    const before = new Map<string, { etag: string; gross: number }>();
    for (const path of PATHS) {
      const r = await call(demo.base, path, { key: demo.reader.key });
      const etag = r.headers.etag!;
      expect((await call(demo.base, path, { key: demo.reader.key, headers: { 'if-none-match': etag } })).status).toBe(
        304,
      );
      before.set(path, { etag, gross: grossOfM07(json(r)) });
    }

    const data = demoJson();
    data.facilities[0].listings.find((l: { code: string }) => l.code === 'M-07').price_gross += 500;
    expect(cli(['import', writeJson(demo.dir, 'raised.json', data)], { env: demo.env }).status).toBe(0);

    for (const path of PATHS) {
      const was = before.get(path)!;
      const after = await call(demo.base, path, { key: demo.reader.key, headers: { 'if-none-match': was.etag } });
      expect(after.status).toBe(200);
      expect(after.headers.etag).not.toBe(was.etag);
      expect(grossOfM07(json(after))).toBeGreaterThan(was.gross);
      expect(Number(after.headers['content-length'])).toBe(Buffer.byteLength(after.text));
      const head = await call(demo.base, path, {
        key: demo.reader.key,
        method: 'HEAD',
        headers: { 'if-none-match': was.etag },
      });
      expect(head.status).toBe(200);
    }
  });

  it('a revoke: a key verified many times before is refused on the very next request, 304 or not', async () => {
    const doomed = issueKey(demo.db, 'wro-1');
    const first = await call(demo.base, LIST, { key: doomed.key });
    for (let i = 0; i < 20; i++)
      expect(
        (await call(demo.base, LIST, { key: doomed.key, headers: { 'if-none-match': first.headers.etag! } })).status,
      ).toBe(304);

    expect(cli(['keys', 'revoke', doomed.id], { env: demo.env }).status).toBe(0);

    const refused = await call(demo.base, LIST, { key: doomed.key, headers: { 'if-none-match': first.headers.etag! } });
    expect(refused.status).toBe(401);
    expect(json(refused).code).toBe('revoked_api_key');
    expect((await call(demo.base, LIST, { key: demo.reader.key })).status).toBe(200);
  });

  it('requests answered together in one batch (one freshness check) all see an import that ended before they were sent', async () => {
    const before = await call(demo.base, LIST, { key: demo.reader.key });
    const data = demoJson();
    data.facilities[0].listings.find((l: { code: string }) => l.code === 'M-07').price_gross += 700;
    expect(cli(['import', writeJson(demo.dir, 'raised-again.json', data)], { env: demo.env }).status).toBe(0);

    // 60 requests at once on many connections: the server reads them in the same event-loop turns and answers them in batches.
    const replies = await Promise.all(
      Array.from({ length: 60 }, () =>
        call(demo.base, LIST, { key: demo.reader.key, headers: { 'if-none-match': before.headers.etag! } }),
      ),
    );
    const ids = new Set<string>();
    for (const r of replies) {
      expect(r.status).toBe(200);
      expect(r.headers.etag).not.toBe(before.headers.etag);
      expect(r.headers.etag).toBe(replies[0]!.headers.etag);
      expect(grossOfM07(json(r))).toBeGreaterThan(grossOfM07(json(before)));
      ids.add(r.headers['x-request-id']!);
    }
    expect(ids.size).toBe(60);
  });
});

describe('last use, coalesced in memory', () => {
  it('is written by the interval while the server runs', async () => {
    const used = issueKey(demo.db, 'wro-1');
    const app = await startTestServer(demo.file, { lastUseIntervalMs: 50, quiet: true });
    try {
      for (let i = 0; i < 5; i++) expect((await call(app.url, LIST, { key: used.key })).status).toBe(200);
      const lastUsed = () =>
        demo.db.prepare<[string], string | null>('SELECT last_used_at FROM api_keys WHERE id = ?').pluck().get(used.id);
      await until('the interval to write last use', () => lastUsed() !== null);
    } finally {
      await app.close();
    }
  });

  it('is written when `listings serve` stops on SIGTERM', async () => {
    const used = issueKey(demo.db, 'wro-1');
    const lastUsed = () =>
      (
        JSON.parse(cli(['keys', 'list', '--json'], { env: demo.env }).stdout) as {
          id: string;
          last_used_at: string | null;
        }[]
      ).find((k) => k.id === used.id)!.last_used_at;
    const started = Date.now();
    expect((await call(demo.base, LIST, { key: used.key })).status).toBe(200);
    expect(lastUsed()).toBeNull(); // not written per request
    demo.server.child.kill('SIGTERM');
    expect((await once(demo.server.child, 'exit'))[0]).toBe(0);
    expect(Date.parse(lastUsed()!)).toBeGreaterThanOrEqual(started - 1000);
  });
});
