// Webhooks on PostgreSQL: the import's events queued in its transaction, and two nodes delivering the same outbox, each
// event received once; the same steps on SQLite give the same log.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseImport } from '../server/domain/import.ts';
import { openStore, type Store } from '../server/store/store.ts';
import { Deliverer } from '../server/webhooks/deliverer.ts';
import { demoImport, demoJson, promotionStarting } from './helpers/fixture.ts';
import { usePostgres } from './helpers/postgres.ts';
import { until } from './helpers/wait.ts';
import { useReceiver } from './helpers/webhook-receiver.ts';

const postgres = usePostgres();
const hooks = useReceiver();

/** Endpoints on two keys of wro-1, then an import that changes every listing of it: the events each store queues. */
async function queueChanges(store: Store, endpoints: number) {
  await store.applyImport(demoImport());
  const keys = [
    await store.createKey({ facilityId: 'wro-1', prefix: 'svc' }),
    await store.createKey({ facilityId: 'wro-1', prefix: 'svc' }),
  ];
  for (let i = 0; i < endpoints; i++) {
    const { secret } = await store.webhooks.add(
      { keyId: keys[i % 2]!.info.id, url: `${hooks.receiver.url}?e=${i}`, events: ['listing.updated'] },
      'test',
    );
    hooks.receiver.state.secrets.push(secret);
  }
  const json = demoJson();
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  for (const l of json.facilities.find((f) => f.id === 'wro-1').listings as any[]) l.price_gross += 100;
  await store.applyImport(parseImport(JSON.stringify(json), 'changed.json'));
  return store.webhooks.deliveries(undefined, 1000);
}

describe('webhooks on PostgreSQL', () => {
  it('queues the same events as SQLite, in the import transaction', async () => {
    const pg = await openStore(await postgres.server().newDatabase());
    const lite = await openStore(join(hooks.dir, 'same.db'));
    const shape = (ds: Awaited<ReturnType<typeof queueChanges>>) => ds.map((d) => [d.type, d.status, d.attempts]);
    try {
      expect(shape(await queueChanges(pg, 2))).toEqual(shape(await queueChanges(lite, 2)));
    } finally {
      await pg.close();
      await lite.close();
    }
  });

  it('reads one delivery by its number as SQLite does, and refuses a replay of one not sent', async () => {
    const pg = await openStore(await postgres.server().newDatabase());
    const lite = await openStore(join(hooks.dir, 'one.db'));
    try {
      const read = async (store: Store) => {
        const [first] = await queueChanges(store, 1);
        const one = await store.webhooks.delivery(first!.id);
        const replay = await store.webhooks.replay(first!.id, 'test').catch((err: { code: string }) => err.code);
        return { same: one?.message_id === first!.message_id, unknown: await store.webhooks.delivery(999_999), replay };
      };
      const got = await read(pg);
      expect(got).toEqual({ same: true, unknown: undefined, replay: 'not_sent' });
      expect(await read(lite)).toEqual(got);
    } finally {
      await pg.close();
      await lite.close();
    }
  });

  it('two nodes deliver each event once', async () => {
    hooks.receiver.received.length = 0;
    const url = await postgres.server().newDatabase();
    const [a, b] = [await openStore(url), await openStore(url)];
    const queued = await queueChanges(a, 6);
    expect(queued.length).toBe(6 * 6); // six active listings of wro-1, for six endpoints
    const nodes = [a, b].map(
      (s) =>
        new Deliverer(s.webhooks, {
          publicUrl: 'https://x.example',
          allowPrivate: true,
          ca: hooks.receiver.ca,
          concurrency: 2,
          pollMs: 50,
        }),
    );
    nodes.forEach((n) => n.start());
    try {
      await until('every event delivered', () => hooks.receiver.received.length >= queued.length);
      await until('the log says so', async () =>
        (await a.webhooks.deliveries(undefined, 1000)).every((d) => d.status === 'delivered'),
      );
    } finally {
      await Promise.all(nodes.map((n) => n.stop()));
    }
    const ids = hooks.receiver.received.map((r) => r.id);
    expect(new Set(ids).size).toBe(queued.length);
    expect(ids.length).toBe(queued.length);
    expect(hooks.receiver.received.every((r) => r.verified !== undefined)).toBe(true);
    const log = await a.webhooks.deliveries(undefined, 1000);
    expect(log.every((d) => d.attempts === 1)).toBe(true);
    // In order per endpoint: each received its messages in the order they were queued.
    const endpoints = await a.webhooks.list();
    endpoints.forEach((e) => {
      const path = new URL(e.url).pathname + new URL(e.url).search;
      const sent = hooks.receiver.received.filter((r) => r.path === path).map((r) => r.id);
      const queuedOrder = log
        .filter((d) => d.endpoint_id === e.id)
        .sort((x, y) => x.id - y.id)
        .map((d) => d.message_id);
      expect(sent).toEqual(queuedOrder);
    });
    await a.close();
    await b.close();
  });

  it('runs the promotion clock as SQLite does: the boundary found, its events queued once', async () => {
    const starts = Math.ceil(Date.now() / 1000) * 1000 + 3_600_000;
    const run = async (store: Store) => {
      await queueChanges(store, 2);
      const json = demoJson();
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      const listing = json.facilities.find((f: any) => f.id === 'wro-1').listings[0];
      listing.promotions = [promotionStarting('SOON', 'Soon', starts)];
      await store.applyImport(parseImport(JSON.stringify(json), 'promotion.json'));
      const before = starts - 60_000;
      return [
        await store.webhooks.promotionTick(before),
        await store.webhooks.nextBoundary(before),
        await store.webhooks.promotionTick(starts),
        await store.webhooks.promotionTick(starts + 1000),
      ];
    };
    const pg = await openStore(await postgres.server().newDatabase());
    const lite = await openStore(join(hooks.dir, 'clock.db'));
    try {
      const expected = [0, starts, 2, 0];
      expect(await run(pg)).toEqual(expected);
      expect(await run(lite)).toEqual(expected);
    } finally {
      await pg.close();
      await lite.close();
    }
  });
});
