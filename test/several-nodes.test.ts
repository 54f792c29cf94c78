// Two `listings serve` processes on one PostgreSQL database: an import or a revoke through the CLI is served by both on
// their next request, and last use from both reaches the shared database.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, DEMO_DATA, demoJson, freePort, grossOfM07, spawnServer, tempDir, writeJson } from './helpers/fixture.ts';
import { startPostgres, type PgServer } from './helpers/postgres.ts';

let pg: PgServer;
let env: NodeJS.ProcessEnv;
let nodes: ReturnType<typeof spawnServer>[] = [];
let bases: string[] = [];
let dir: string;
let cleanup: () => void;

beforeAll(async () => {
  pg = await startPostgres();
  // One PUBLIC_URL for both, as behind one load balancer: `serve` on PostgreSQL refuses to start without it.
  env = { LISTINGS_DB: await pg.newDatabase(), PUBLIC_URL: 'https://listings.example.com' };
  ({ dir, cleanup } = tempDir());
  expect(cli(['import', DEMO_DATA], { env }).status).toBe(0);
  nodes = [];
  for (let i = 0; i < 2; i++) nodes.push(spawnServer(['serve', '--port', String(await freePort()), '--quiet'], env));
  bases = await Promise.all(nodes.map((n) => n.ready));
});
afterAll(async () => {
  await Promise.all(nodes.map((n) => n.stop()));
  await pg?.close();
  cleanup?.();
});

function newKey(facility: string): { key: string; id: string } {
  const r = cli(['keys', 'create', '--facility', facility, '--json'], { env });
  expect(r.status).toBe(0);
  return JSON.parse(r.stdout) as { key: string; id: string };
}

const list = (base: string, key: string) => fetch(`${base}/external/listings`, { headers: { 'x-api-key': key } });

describe('two nodes on one PostgreSQL database', () => {
  it('serve an import made through the CLI from the next request on, on both', async () => {
    const reader = newKey('wro-1');
    for (const base of bases) expect((await list(base, reader.key)).status).toBe(200);
    const data = demoJson();
    const m07 = data.facilities[0].listings.find((l: { code: string }) => l.code === 'M-07');
    m07.price_gross += 1000;
    const before = grossOfM07(await (await list(bases[0]!, reader.key)).json());
    expect(cli(['import', writeJson(dir, 'changed.json', data)], { env }).status).toBe(0);
    for (const base of bases) expect(grossOfM07(await (await list(base, reader.key)).json())).toBeGreaterThan(before);
  });

  it('refuse a revoked key from the next request on, on both', async () => {
    const partner = newKey('wro-1');
    for (const base of bases) expect((await list(base, partner.key)).status).toBe(200);
    expect(cli(['keys', 'revoke', partner.id], { env }).status).toBe(0);
    for (const base of bases) {
      const r = await list(base, partner.key);
      expect(r.status).toBe(401);
      expect(((await r.json()) as { code: string }).code).toBe('revoked_api_key');
    }
  });

  it('say they are healthy, and write last use from both to the shared database on shutdown', async () => {
    for (const base of bases) expect((await fetch(`${base}/healthz`)).status).toBe(200);
    const a = newKey('ber-1');
    const b = newKey('zrh-1');
    expect((await list(bases[0]!, a.key)).status).toBe(200);
    expect((await list(bases[1]!, b.key)).status).toBe(200);
    await Promise.all(nodes.map((n) => n.stop()));
    const keys = JSON.parse(cli(['keys', 'list', '--json'], { env }).stdout) as { id: string; last_used_at: string }[];
    for (const id of [a.id, b.id]) expect(keys.find((k) => k.id === id)?.last_used_at).toMatch(/^\d{4}-/);
  });
});
