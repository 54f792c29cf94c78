// Two `listings serve` processes on one PostgreSQL database: an import or a revoke through the CLI is served by both on
// their next request, and last use from both reaches the shared database.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, demoJson, grossOfM07, tempDir, writeJson } from './helpers/fixture.ts';
import { twoNodesForAll } from './helpers/two-nodes.ts';

let env: NodeJS.ProcessEnv;
let bases: string[] = [];
let stopNodes: () => Promise<void>;
let dir: string;
let cleanup: () => void;

// One PUBLIC_URL for both, as behind one load balancer: `serve` on PostgreSQL refuses to start without it.
twoNodesForAll('https://listings.example.com', (t) => ({ env, bases, stop: stopNodes } = t));
beforeAll(() => {
  ({ dir, cleanup } = tempDir());
});
afterAll(() => cleanup?.());

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
    await stopNodes();
    const keys = JSON.parse(cli(['keys', 'list', '--json'], { env }).stdout) as { id: string; last_used_at: string }[];
    for (const id of [a.id, b.id]) expect(keys.find((k) => k.id === id)?.last_used_at).toMatch(/^\d{4}-/);
  });
});
