// PostgreSQL stopped under load and started again: two nodes answer only the documented 503 meanwhile, never accept a
// revoked key, and serve again without a restart. A connection lost mid-transaction fails the transaction, not the process.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { inTransaction, openPg } from '../server/store/pg/connect.ts';
import { openStore, type Store } from '../server/store/store.ts';
import { demoImport, startTestServer } from './helpers/fixture.ts';
import { recordKey } from './helpers/capture.ts';
import { startPostgres, type PgServer } from './helpers/postgres.ts';
import { until } from './helpers/wait.ts';

let pg: PgServer;
let store: Store;
let apps: Awaited<ReturnType<typeof startTestServer>>[] = [];
let good: string;
let revoked: string;

beforeAll(async () => {
  pg = await startPostgres();
  const url = await pg.newDatabase();
  store = await openStore(url);
  await store.applyImport(demoImport());
  good = (await store.createKey({ facilityId: 'wro-1', prefix: 'svc' })).key;
  const r = await store.createKey({ facilityId: 'wro-1', prefix: 'svc' });
  revoked = r.key;
  [good, revoked].forEach(recordKey);
  await store.revokeKey(r.info.id);
  await store.close();
  // No rate limits: the load repeats a revoked key from one address, which would otherwise be answered 429.
  const unlimited = { rate: 1e9, burst: 1e9 };
  const opts = { quiet: true, defaultLimit: unlimited, authFailureLimit: unlimited };
  apps = [await startTestServer(url, opts), await startTestServer(url, opts)];
});
afterAll(async () => {
  await Promise.all(apps.map((a) => a.close()));
  await pg?.close();
});

const get = async (base: string, key: string) => {
  const r = await fetch(`${base}/external/listings`, { headers: { 'x-api-key': key } });
  const body = await r.text();
  return {
    status: r.status,
    code: r.status === 200 ? '' : (JSON.parse(body) as { code: string }).code,
    retry: r.headers.get('retry-after'),
  };
};

it('answers only 200, 401 revoked_api_key and 503 database_unavailable through an outage, and recovers by itself', async () => {
  const seen: { status: number; code: string; key: string }[] = [];
  let running = true;
  const load = async () => {
    for (let i = 0; running && i < 100_000; i++) {
      const key = i % 2 === 0 ? good : revoked;
      const r = await get(apps[i % apps.length]!.url, key);
      seen.push({ ...r, key });
      if (r.status === 503) expect(r.retry).toBe('5');
    }
  };
  const clients = [load(), load(), load(), load()];
  await until('answers under load', () => seen.length > 100);
  await pg.stop();
  await until('503 from both nodes', async () => {
    const health = await Promise.all(apps.map((a) => fetch(`${a.url}/healthz`).then((r) => r.status)));
    return health.every((s) => s === 503);
  });
  const during = seen.length;
  await until('answers during the outage', () => seen.length > during + 100);
  await pg.start();
  await until(
    'both nodes serving again',
    async () => (await Promise.all(apps.map((a) => get(a.url, good)))).every((r) => r.status === 200),
    { timeoutMs: 30_000 },
  );
  for (const a of apps) expect((await fetch(`${a.url}/healthz`)).status).toBe(200);
  running = false;
  await Promise.all(clients);
  expect(seen.filter((s) => s.status === 503).length).toBeGreaterThan(0);
  for (const s of seen) {
    if (s.key === revoked) expect([401, 503]).toContain(s.status);
    if (s.status === 401) expect(s.code).toBe('revoked_api_key');
    else if (s.status !== 200) expect([s.status, s.code]).toEqual([503, 'database_unavailable']);
  }
});

it('a connection lost inside a transaction fails that transaction, not the process, and the pool works again after', async () => {
  const pool = await openPg(await pg.newDatabase());
  try {
    const lost = inTransaction(pool, async (c) => {
      await c.query('SELECT 1');
      await pg.stop(); // the server closes the connection while the transaction waits between two statements
      await new Promise((r) => setTimeout(r, 100));
      await c.query('SELECT 1');
    });
    await expect(lost).rejects.toThrow();
    await pg.start();
    expect(await inTransaction(pool, async (c) => (await c.query<{ n: number }>('SELECT 1 AS n')).rows[0]!.n)).toBe(1);
  } finally {
    await pool.end();
  }
});

it('says how much it could not write when it stops during an outage, rather than dropping it silently', async () => {
  const url = await pg.newDatabase();
  const setup = await openStore(url);
  await setup.applyImport(demoImport());
  const { key } = await setup.createKey({ facilityId: 'wro-1', prefix: 'svc' });
  recordKey(key);
  await setup.close();
  const lines: string[] = [];
  const app = await startTestServer(url, { quiet: true, lastUseIntervalMs: 600_000, logWrite: (l) => lines.push(l) });
  expect((await get(app.url, key)).status).toBe(200);
  await pg.stop();
  try {
    await app.close();
  } finally {
    await pg.start();
  }
  // (A write that failed before is said at warn, as held: the loss is the error line.)
  const lost = lines
    .map((l) => JSON.parse(l) as Record<string, unknown>)
    .find((l) => 'last_use_keys' in l && l.level === 'error');
  expect(lost).toMatchObject({ level: 'error', last_use_keys: 1, click_count_rows: 0 });
  expect(lost?.message).toContain('the last use of 1 keys and 0 click counts are lost');
});

it('writes last use and clicks held through an outage once the database is back, with nothing new to write', async () => {
  const url = await pg.newDatabase();
  const setup = await openStore(url);
  await setup.applyImport(demoImport());
  const made = await setup.createKey({ facilityId: 'wro-1', prefix: 'svc' });
  recordKey(made.key);
  const lines: Record<string, unknown>[] = [];
  const app = await startTestServer(url, {
    quiet: true,
    lastUseIntervalMs: 1_500,
    clickIntervalMs: 1_500,
    logWrite: (l) => lines.push(JSON.parse(l) as Record<string, unknown>),
  });
  try {
    const list = await fetch(`${app.url}/external/listings`, { headers: { 'x-api-key': made.key } });
    const go = await fetch(`${app.url}/go/wro-1/M-07?ref=${list.headers.get('x-partner-ref')}`, {
      redirect: 'manual',
      headers: { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0' },
    });
    expect([list.status, go.status]).toEqual([200, 302]);
    // Stopped before the node's next write (its interval here is 1.5 s): the writes fail and are held.
    await pg.stop();
    try {
      await until('both writes to fail', () => {
        const failed = lines.filter((l) => l.level === 'warn');
        return failed.some((l) => l.last_use_keys === 1) && failed.some((l) => l.click_count_rows === 1);
      });
    } finally {
      await pg.start();
    }
    // No request after the outage: the held writes are retried on their own.
    await until('the held last use and clicks to be written', async () => {
      const keys = await setup.listKeys();
      const clicks = await setup.referrals({ from: '2000-01-01', to: '2999-12-31' });
      return keys.find((k) => k.id === made.info.id)?.last_used_at && clicks.length === 1;
    });
  } finally {
    await app.close();
    await setup.close();
  }
});
