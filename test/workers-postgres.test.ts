// `listings serve --workers 2` on PostgreSQL: each worker is a node with its own mirror, and a revoke or an import through
// the CLI is seen by both on their next request. NOTIFY wakes a node to bring its mirror up to date before any request.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, DEMO_DATA, demoJson, freePort, grossOfM07, spawnServer, tempDir, writeJson } from './helpers/fixture.ts';
import { revokeWithoutRequest } from './helpers/notify.ts';
import { startPostgres, type PgServer } from './helpers/postgres.ts';
import { childrenOf, many, workersOf } from './helpers/workers.ts';

let server: PgServer;
beforeAll(async () => {
  server = await startPostgres();
});
afterAll(() => server?.close());

describe('listings serve --workers 2 on PostgreSQL', () => {
  let env: NodeJS.ProcessEnv;
  let serve: ReturnType<typeof spawnServer>;
  let base: string;
  let dir: string;
  let cleanup: () => void;
  const newKey = () => {
    const r = cli(['keys', 'create', '--facility', 'wro-1', '--json'], { env });
    expect(r.status, r.stderr).toBe(0);
    return JSON.parse(r.stdout) as { key: string; id: string };
  };
  beforeAll(async () => {
    env = { LISTINGS_DB: await server.newDatabase(), PUBLIC_URL: 'https://listings.example.com' };
    ({ dir, cleanup } = tempDir());
    expect(cli(['import', DEMO_DATA], { env }).status).toBe(0);
    serve = spawnServer(['serve', '--port', String(await freePort()), '--quiet', '--workers', '2'], env);
    base = await serve.ready;
  });
  afterAll(async () => {
    await serve?.stop();
    cleanup?.();
  });

  it('answers from two worker processes', async () => {
    expect(childrenOf(serve.child.pid!)).toHaveLength(2);
    const answers = await many(base, newKey().key, 8);
    expect(answers.map((a) => a.status)).toEqual(Array(8).fill(200));
    expect(workersOf(answers).size).toBe(2);
    expect(new Set(answers.map((a) => a.etag)).size).toBe(1);
  });

  it('a revoke through the CLI: refused by both workers on their next request', async () => {
    const doomed = newKey();
    const warm = await many(base, doomed.key, 8);
    expect(workersOf(warm).size).toBe(2);
    for (const a of warm) expect(a.status).toBe(200);
    expect(cli(['keys', 'revoke', doomed.id], { env }).status).toBe(0);
    const refused = await many(base, doomed.key, 8, { 'if-none-match': warm[0]!.etag! });
    expect(workersOf(refused).size).toBe(2);
    for (const a of refused) expect([a.status, JSON.parse(a.body).code]).toEqual([401, 'revoked_api_key']);
  });

  it('an import through the CLI: both workers serve the new price on their next request', async () => {
    const reader = newKey();
    const before = await many(base, reader.key, 8);
    const data = demoJson();
    data.facilities[0].listings.find((l: { code: string }) => l.code === 'M-07').price_gross += 700;
    expect(cli(['import', writeJson(dir, 'raised.json', data)], { env }).status).toBe(0);
    const after = await many(base, reader.key, 8, { 'if-none-match': before[0]!.etag! });
    expect(workersOf(after).size).toBe(2);
    for (const a of after) {
      expect(a.etag).not.toBe(before[0]!.etag);
      expect(grossOfM07(JSON.parse(a.body))).toBeGreaterThan(grossOfM07(JSON.parse(before[0]!.body)));
    }
  });
});

describe('NOTIFY', () => {
  it('wakes a node, which brings its mirror up to date and drops its caches before any request arrives', async () => {
    const url = await server.newDatabase();
    expect(await revokeWithoutRequest({ nodeUrl: url, storeUrl: url, adminUrl: url })).toBeGreaterThan(0);
  });
});
