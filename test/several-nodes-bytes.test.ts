// Nodes behind one load balancer answer the same bytes: two `listings serve` on one PostgreSQL database, on different
// ports with one PUBLIC_URL, give identical lists, details and rental pages with identical ETags, and one node's ETag
// gets a 304 from the other. `serve` on PostgreSQL without PUBLIC_URL, where each node would put its own address in
// the rent links, refuses to start.
import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import { cli, freePort, spawnServer } from './helpers/fixture.ts';
import { PASSWORD } from './helpers/postgres.ts';
import { twoNodesForAll } from './helpers/two-nodes.ts';

/** Headers that differ between any two requests to one server. */
const PER_REQUEST = new Set(['date', 'x-request-id', 'ratelimit', 'ratelimit-policy', 'keep-alive', 'connection']);
const PUBLIC_URL = 'https://listings.example.com';

let db: string;
let key: string;
let bases: string[] = [];

twoNodesForAll(
  PUBLIC_URL,
  (t) => ({ bases } = t),
  (made) => {
    db = made;
    const created = cli(['keys', 'create', '--facility', 'ber-1', '--json'], { env: { LISTINGS_DB: db } });
    key = (JSON.parse(created.stdout) as { key: string }).key;
  },
);

interface Bytes {
  status: number;
  headers: Record<string, string>;
  body: string;
}

async function bytesOf(base: string, path: string, headers: Record<string, string>): Promise<Bytes> {
  const res = await request(base + path, { headers });
  const body = Buffer.from(await res.body.arrayBuffer()).toString('base64');
  const kept: Record<string, string> = {};
  for (const [name, value] of Object.entries(res.headers))
    if (!PER_REQUEST.has(name) && value !== undefined) kept[name] = String(value);
  return { status: res.statusCode, headers: kept, body };
}

/** The same request to both nodes: the same status, headers and bytes; what they answered. */
async function same(path: string, headers: Record<string, string> = {}): Promise<Bytes> {
  const [a, b] = await Promise.all(bases.map((base) => bytesOf(base, path, headers)));
  expect(b).toEqual(a);
  return a!;
}

describe('two nodes on one PostgreSQL database with one PUBLIC_URL', () => {
  it('listen on different ports', () => {
    expect(new Set(bases).size).toBe(2);
  });

  it('answer the same list, details and rental pages, byte for byte, with the same ETags', async () => {
    const keyed = { 'x-api-key': key };
    for (const coding of ['identity', 'gzip', 'br']) {
      const list = await same('/external/listings', { ...keyed, 'accept-encoding': coding });
      expect(list.status).toBe(200);
      expect(list.headers.etag).toMatch(/^"/);
    }
    const list = JSON.parse(Buffer.from((await same('/external/listings', keyed)).body, 'base64').toString()) as {
      listings: { id: string; code: string; rent_url: string }[];
    };
    expect(list.listings.length).toBeGreaterThan(2);
    for (const { id, code, rent_url } of list.listings) {
      expect(rent_url).toBe(`${PUBLIC_URL}/rent/ber-1/${code}`);
      const detail = await same(`/external/listings/${id}`, keyed);
      expect([detail.status, detail.headers.etag]).toEqual([200, expect.stringMatching(/^"/)]);
      expect((await same(`/rent/ber-1/${code}`)).status).toBe(200);
    }
  });

  it("answer 304 to an If-None-Match with the other node's ETag", async () => {
    const keyed = { 'x-api-key': key };
    const detailId = (
      JSON.parse(Buffer.from((await bytesOf(bases[0]!, '/external/listings', keyed)).body, 'base64').toString()) as {
        listings: { id: string }[];
      }
    ).listings[0]!.id;
    for (const path of ['/external/listings', '/external/listings?sort=price', `/external/listings/${detailId}`]) {
      for (const [from, to] of [
        [0, 1],
        [1, 0],
      ] as const) {
        const etag = (await bytesOf(bases[from]!, path, keyed)).headers.etag!;
        const again = await bytesOf(bases[to]!, path, { ...keyed, 'if-none-match': etag });
        expect([path, again.status, again.body]).toEqual([path, 304, '']);
      }
    }
  });
});

describe('listings serve on PostgreSQL without PUBLIC_URL', () => {
  it.each([
    ['unset', {}],
    ['empty', { PUBLIC_URL: '' }],
  ])('refuses to start (%s) with one line naming the setting, exit 2', async (_how, extra) => {
    const r = cli(['serve', '--port', String(await freePort()), '--quiet'], {
      env: { PUBLIC_URL: undefined, ...extra, LISTINGS_DB: db },
    });
    expect(r.status).toBe(2);
    const lines = r.stderr.trimEnd().split('\n');
    expect(lines).toEqual([
      expect.stringMatching(/^error: PUBLIC_URL \(--public-url\): must be set when LISTINGS_DB is a postgres:\/\/ URL/),
    ]);
    expect(r.stderr).not.toContain(PASSWORD);
  });

  it('starts with --public-url in place of the variable', async () => {
    const node = spawnServer(['serve', '--port', String(await freePort()), '--quiet', '--public-url', PUBLIC_URL], {
      LISTINGS_DB: db,
    });
    try {
      expect(await node.ready).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    } finally {
      await node.stop();
    }
  });
});
