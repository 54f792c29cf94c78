// The sender is `listings serve` itself: killed with SIGKILL in the middle of deliveries and started again, it delivers
// every event, loses none, and sends each webhook-id with one content.
import { describe, expect, it } from 'vitest';
import { parseImport } from '../server/domain/import.ts';
import { openStore } from '../server/store/store.ts';
import { demoDb, demoJson, freePort, issueKey, spawnServer } from './helpers/fixture.ts';
import { until } from './helpers/wait.ts';
import { useReceiver } from './helpers/webhook-receiver.ts';

const hooks = useReceiver();

describe('listings serve delivers webhooks', () => {
  it('survives SIGKILL mid-deliveries: every event delivered, each webhook-id with one content', async () => {
    const { db, file } = demoDb(hooks.dir);
    const key = issueKey(db, 'wro-1').id;
    db.close();
    const store = await openStore(file);
    for (let i = 0; i < 4; i++) {
      const { secret } = await store.webhooks.add(
        { keyId: key, url: `${hooks.receiver.url}?e=${i}`, events: ['listing.updated'] },
        'test',
      );
      hooks.receiver.state.secrets.push(secret);
    }
    hooks.receiver.state.delayMs = 40;
    const env = { LISTINGS_DB: file, WEBHOOKS_ALLOW_PRIVATE: '1', NODE_EXTRA_CA_CERTS: hooks.receiver.caFile };
    const serve = async () => {
      const server = spawnServer(['serve', '--port', String(await freePort()), '--quiet'], env);
      await server.ready;
      return server;
    };
    const first = await serve();
    const json = demoJson();
    for (let round = 0; round < 3; round++) {
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      for (const l of json.facilities.find((f) => f.id === 'wro-1').listings as any[]) l.price_gross += 100;
      await store.applyImport(parseImport(JSON.stringify(json), 'changed.json'));
    }
    await until('some deliveries', () => hooks.receiver.received.length >= 10);
    first.child.kill('SIGKILL');
    await new Promise((r) => first.child.once('exit', r));
    const atKill = hooks.receiver.received.length;
    const queued = await store.webhooks.deliveries(undefined, 1000);
    expect(queued.filter((d) => d.status === 'pending').length).toBeGreaterThan(0);
    // Killed in the middle: some delivered and recorded, others not yet sent or sent without their answer recorded.
    expect(queued.some((d) => d.status === 'delivered')).toBe(true);

    const second = await serve();
    try {
      await until('every event delivered', async () =>
        (await store.webhooks.deliveries(undefined, 1000)).every((d) => d.status === 'delivered'),
      );
    } finally {
      await second.stop();
      await store.close();
    }
    const contents = new Map<string, Set<string>>();
    for (const r of hooks.receiver.received) contents.set(r.id, (contents.get(r.id) ?? new Set()).add(r.body));
    expect(queued.every((d) => contents.has(d.message_id))).toBe(true);
    expect([...contents.values()].every((bodies) => bodies.size === 1)).toBe(true);
    expect(hooks.receiver.received.every((r) => r.verified !== undefined)).toBe(true);
    expect(atKill).toBeLessThan(queued.length);
    expect(contents.size).toBe(queued.length);
  });
});

describe('listings serve --workers 2 --port 0', () => {
  it('names the port the workers got, in its banner, its answers and its webhooks', async () => {
    const { db, file } = demoDb(hooks.dir);
    const key = issueKey(db, 'wro-1');
    db.close();
    const store = await openStore(file);
    const { secret } = await store.webhooks.add(
      { keyId: key.id, url: hooks.receiver.url, events: ['listing.updated'] },
      'test',
    );
    hooks.receiver.state.secrets.push(secret);
    const env = { LISTINGS_DB: file, WEBHOOKS_ALLOW_PRIVATE: '1', NODE_EXTRA_CA_CERTS: hooks.receiver.caFile };
    const server = spawnServer(['serve', '--port', '0', '--quiet', '--workers', '2'], env);
    try {
      const base = await server.ready;
      const port = Number(new URL(base).port);
      expect(port).toBeGreaterThan(0);
      expect(server.output().stderr).toContain(`public URL http://127.0.0.1:${port}`);
      const list = (await (await fetch(`${base}/external/listings`, { headers: { 'x-api-key': key.key } })).json()) as {
        listings: { rent_url: string }[];
      };
      expect(list.listings[0]!.rent_url).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${port}/rent/`));
      const json = demoJson();
      json.facilities.find((f: { id: string }) => f.id === 'wro-1').listings[0].price_gross += 100;
      const before = hooks.receiver.received.length; // the receiver is shared with the test above
      await store.applyImport(parseImport(JSON.stringify(json), 'changed.json'));
      await until('the event', () => hooks.receiver.received.length > before);
      const event = JSON.parse(hooks.receiver.received[before]!.body) as { data: { listing: { rent_url: string } } };
      expect(event.data.listing.rent_url).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${port}/rent/`));
    } finally {
      await server.stop();
      await store.close();
    }
  });
});
