// The HTTP contract on both backends: the same file imported into a SQLite file and into PostgreSQL, served by
// `listings serve` on each, gives the same bytes for every request (list, detail, 404s, ETags and 304s, rental pages),
// apart from the headers that differ per request.
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { listingIdOf } from '../server/domain/facility.ts';
import { cli, DEMO_DATA, freePort, spawnServer, tempDir } from './helpers/fixture.ts';
import { startPostgres, type PgServer } from './helpers/postgres.ts';

/** Headers that differ between any two requests to one server. */
const PER_REQUEST = new Set(['date', 'x-request-id', 'ratelimit', 'ratelimit-policy', 'keep-alive', 'connection']);
const PUBLIC_URL = 'http://listings.example';

interface Backend {
  env: NodeJS.ProcessEnv;
  server: ReturnType<typeof spawnServer>;
  base: string;
  keys: Record<'reader' | 'other' | 'revoked', string>;
}

interface Bytes {
  status: number;
  headers: Record<string, string>;
  body: string;
}

let pg: PgServer;
let cleanup: () => void;
const backends: Backend[] = [];

function run(args: string[], env: NodeJS.ProcessEnv): string {
  const r = cli(args, { env });
  expect(r.status, r.stderr).toBe(0);
  return r.stdout;
}

async function backend(db: string): Promise<Backend> {
  const env = { LISTINGS_DB: db, PUBLIC_URL };
  run(['import', DEMO_DATA], env);
  // The same refs on both backends: a ref is in every keyed answer's headers, made from the key id when not given.
  const key = (facility: string, ref: string) =>
    JSON.parse(run(['keys', 'create', '--facility', facility, '--ref', ref, '--json'], env)) as {
      key: string;
      id: string;
    };
  const reader = key('wro-1', 'reader');
  const other = key('ber-1', 'other');
  const revoked = key('wro-1', 'revoked');
  run(['keys', 'revoke', revoked.id], env);
  const server = spawnServer(['serve', '--port', String(await freePort()), '--quiet'], env);
  return {
    env,
    server,
    base: await server.ready,
    keys: { reader: reader.key, other: other.key, revoked: revoked.key },
  };
}

beforeAll(async () => {
  pg = await startPostgres();
  const temp = tempDir();
  cleanup = temp.cleanup;
  backends.push(await backend(join(temp.dir, 'listings.db')), await backend(await pg.newDatabase()));
}, 120_000);
afterAll(async () => {
  await Promise.all(backends.map((b) => b.server.stop()));
  await pg?.close();
  cleanup?.();
});

type Ask = (b: Backend) => { path: string; method?: 'GET' | 'HEAD' | 'OPTIONS'; headers?: Record<string, string> };

async function bytesOf(b: Backend, ask: Ask): Promise<Bytes> {
  const { path, method = 'GET', headers = {} } = ask(b);
  const res = await request(b.base + path, { method, headers });
  const body = Buffer.from(await res.body.arrayBuffer()).toString('base64');
  const kept: Record<string, string> = {};
  for (const [name, value] of Object.entries(res.headers))
    if (!PER_REQUEST.has(name) && value !== undefined) kept[name] = String(value);
  return { status: res.statusCode, headers: kept, body };
}

/** The same request to both backends: the same status, headers and bytes. */
async function same(ask: Ask): Promise<Bytes> {
  const [sqlite, postgres] = await Promise.all(backends.map((b) => bytesOf(b, ask)));
  expect(postgres).toEqual(sqlite);
  return sqlite!;
}

const keyed =
  (path: string, key: keyof Backend['keys'] = 'reader', headers: Record<string, string> = {}): Ask =>
  (b) => ({ path, headers: { 'x-api-key': b.keys[key], ...headers } });

describe('SQLite and PostgreSQL serve the same bytes', () => {
  it('lists, with and without filters, sorts and compression', async () => {
    for (const q of ['', '?available=true', '?sort=-price', '?min_area=3&max_area=10&sort=area', '?sort=code'])
      for (const coding of ['identity', 'gzip', 'br']) {
        const r = await same(keyed(`/external/listings${q}`, 'reader', { 'accept-encoding': coding }));
        expect(r.status).toBe(200);
      }
    expect((await same(keyed('/external/listings', 'other'))).status).toBe(200);
    expect((await same(keyed('/external/listings?sort=size'))).status).toBe(400);
  });

  it('details, and one 404 for another facility, an unknown and a malformed id', async () => {
    const list = JSON.parse(
      await (
        await fetch(`${backends[0]!.base}/external/listings`, { headers: { 'x-api-key': backends[0]!.keys.reader } })
      ).text(),
    ) as { listings: { id: string }[] };
    expect(list.listings.length).toBeGreaterThan(2);
    for (const { id } of list.listings) expect((await same(keyed(`/external/listings/${id}`))).status).toBe(200);
    const missing = [listingIdOf('wro-1', 'OLD-1'), listingIdOf('ber-1', 'S-1'), `lst_${'0'.repeat(20)}`, 'nope'];
    const bodies = new Set<string>();
    for (const id of missing) {
      const r = await same(keyed(`/external/listings/${id}`));
      expect(r.status).toBe(404);
      bodies.add(r.body);
    }
    expect(bodies.size).toBe(1);
    expect((await same(keyed(`/external/listings/${list.listings[0]!.id}`, 'other'))).status).toBe(404);
  });

  it('ETags: the same tag on both, and 304 on both for it', async () => {
    for (const path of ['/external/listings', '/external/listings?sort=price']) {
      const first = await same(keyed(path));
      const etag = first.headers.etag!;
      expect(etag).toMatch(/^"/);
      expect((await same(keyed(path, 'reader', { 'if-none-match': etag }))).status).toBe(304);
      expect((await same(keyed(path, 'reader', { 'if-none-match': '"stale"' }))).status).toBe(200);
      expect((await same((b) => ({ ...keyed(path)(b), method: 'HEAD' }))).status).toBe(200);
    }
  });

  it('keys: missing, unknown, revoked and preflight answers', async () => {
    expect((await same(() => ({ path: '/external/listings' }))).status).toBe(401);
    expect((await same(() => ({ path: '/external/listings', headers: { 'x-api-key': 'svc_live_x' } }))).status).toBe(
      401,
    );
    expect((await same(keyed('/external/listings', 'revoked'))).status).toBe(401);
    expect((await same(() => ({ path: '/external/listings', method: 'OPTIONS' }))).status).toBe(204);
  });

  it('rental pages, their 404 and the health check', async () => {
    for (const path of [
      '/rent/wro-1/M-07',
      '/rent/ber-1/S-1',
      '/rent/wro-1/OLD-1',
      '/rent/wro-1/NOPE',
      '/rent/nope/M-07',
      '/healthz',
    ])
      await same(() => ({ path, headers: { 'accept-encoding': 'gzip' } }));
    expect((await same(() => ({ path: '/rent/wro-1/M-07' }))).status).toBe(200);
    expect((await same(() => ({ path: '/rent/wro-1/NOPE' }))).status).toBe(404);
  });

  it('after a re-import that changes a price, a caption and the photos, and drops a listing', async () => {
    const data = JSON.parse(readFileSync(DEMO_DATA, 'utf8')) as {
      facilities: { id: string; listings: { code: string; price_gross: number; photos: { caption: string }[] }[] }[];
    };
    const listings = data.facilities.find((f) => f.id === 'wro-1')!.listings;
    const byCode = (code: string) => listings.find((l) => l.code === code)!;
    byCode('XS-01').price_gross += 100;
    byCode('S-03').photos[0]!.caption = 'A new caption';
    byCode('M-07').photos.pop();
    byCode('L-12').photos.push({ ...byCode('L-12').photos[0]!, caption: 'Another' });
    listings.splice(listings.indexOf(byCode('XL-20')), 1);
    const file = join(backends[0]!.env.LISTINGS_DB!, '..', 'changed.json');
    writeFileSync(file, JSON.stringify(data));
    for (const b of backends) run(['import', file], b.env);
    const list = await same(keyed('/external/listings'));
    expect(list.status).toBe(200);
    for (const code of ['XS-01', 'S-03', 'M-07', 'L-12', 'XL-20', 'W-02']) {
      const detail = await same(keyed(`/external/listings/${listingIdOf('wro-1', code)}`));
      expect(detail.status).toBe(code === 'XL-20' ? 404 : 200);
    }
    const m07 = JSON.parse(
      (await request(`${backends[1]!.base}/external/listings/${listingIdOf('wro-1', 'M-07')}`, {
        headers: { 'x-api-key': backends[1]!.keys.reader },
      }).then((r) => r.body.text())) as string,
    ) as { photos: unknown[] };
    expect(m07.photos).toHaveLength(2);
  });
});
