// Clicks across processes: two keys share bodies and ETags but not refs; two nodes on PostgreSQL add to one row without
// counting twice; a SIGTERM writes what is pending.
import { afterAll, describe, expect, it } from 'vitest';
import { openStore } from '../server/store/store.ts';
import { demoImport, servedDemo, issueKey, type ServedDemo } from './helpers/fixture.ts';
import { handlerAt, inject } from './helpers/inject.ts';
import { usePostgres } from './helpers/postgres.ts';
import { until } from './helpers/wait.ts';
import { updateKey } from '../server/store/keys.ts';

const postgres = usePostgres();
const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0';
const ALL_DAYS = { from: '2000-01-01', to: '2999-12-31' };
const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});

describe('two keys of one facility', () => {
  it('answer byte-identical list bodies and ETags, each with its own X-Partner-Ref', async () => {
    const demo: ServedDemo = await servedDemo();
    cleanups.push(demo.close);
    const other = issueKey(demo.db, 'wro-1', { ref: 'second-partner' });
    const list = (key: string) => fetch(`${demo.base}/external/listings`, { headers: { 'x-api-key': key } });
    // The server sees the new key at its next batch after the commit.
    await until('the new key to be served', async () => (await list(other.key)).status === 200);
    const [a, b] = await Promise.all(
      [demo.reader.key, other.key].map((key) =>
        fetch(`${demo.base}/external/listings`, { headers: { 'x-api-key': key } }),
      ),
    );
    expect(Buffer.from(await a!.arrayBuffer()).equals(Buffer.from(await b!.arrayBuffer()))).toBe(true);
    expect(a!.headers.get('etag')).toBe(b!.headers.get('etag'));
    expect(b!.headers.get('x-partner-ref')).toBe('second-partner');
    expect(a!.headers.get('x-partner-ref')).toMatch(/^[a-z0-9][a-z0-9-]*$/);
    expect(a!.headers.get('x-partner-ref')).not.toBe('second-partner');
  });

  it('a SIGTERM writes the clicks still pending', async () => {
    const demo = await servedDemo();
    cleanups.push(demo.close);
    updateKey(demo.db, demo.reader.id, { ref: 'odra' });
    const r = await fetch(`${demo.base}/go/wro-1/M-07?ref=odra`, {
      redirect: 'manual',
      headers: { 'user-agent': BROWSER },
    });
    expect(r.status).toBe(302);
    await demo.server.stop();
    const store = await openStore(demo.file);
    try {
      expect(await store.referrals(ALL_DAYS)).toMatchObject([
        { ref: 'odra', listing: 'M-07', clicks: 1, unique_visitors: 1 },
      ]);
    } finally {
      await store.close();
    }
  });
});

describe('two nodes on PostgreSQL', () => {
  it('add their clicks to one row: each counted once', async () => {
    const url = await postgres.server().newDatabase();
    const store = await openStore(url);
    cleanups.push(() => store.close());
    await store.applyImport(demoImport());
    const { info } = await store.createKey({ facilityId: 'wro-1', prefix: 'svc', ref: 'odra' });
    expect(info.ref).toBe('odra');
    const nodes = [
      await handlerAt(url, { clickIntervalMs: 3_600_000 }),
      await handlerAt(url, { clickIntervalMs: 3_600_000 }),
    ];
    for (const [n, node] of nodes.entries())
      for (let i = 0; i < 3; i++) {
        const r = await inject(node, {
          url: '/go/wro-1/M-07?ref=odra',
          headers: { 'user-agent': BROWSER },
          remoteAddress: `203.0.113.${n}`,
        });
        expect(r.status).toBe(302);
      }
    for (const node of nodes) await node.stop();
    expect(await store.referrals({ ...ALL_DAYS, by: 'ref' })).toEqual([
      { facility: 'wro-1', ref: 'odra', listing: null, day: null, clicks: 6, unique_visitors: 2 },
    ]);
  });
});
