// A slow receiver delays only its own endpoint: with the deliverer's loop running, a fast endpoint of the same key gets
// all its events while the slow one is still on its first, and the loop waits for the send rather than looking again
// and again. An answer's status decides, whatever its body does; a revoked key's endpoints hear of nothing more, queued
// events included.
import { describe, expect, it } from 'vitest';
import { openStore, type Store } from '../server/store/store.ts';
import { Deliverer, processScope } from '../server/webhooks/deliverer.ts';
import { hostname } from 'node:os';
import { parseImport } from '../server/domain/import.ts';
import { demoDb, demoJson, issueKey, tempDir } from './helpers/fixture.ts';
import { until } from './helpers/wait.ts';
import { attempted } from './helpers/webhook-attempt.ts';
import { useReceiver } from './helpers/webhook-receiver.ts';

const fast = useReceiver();
const slow = useReceiver();

/** The demo data in a temporary file with a key for wro-1, opened as a store. */
async function demoStore() {
  const temp = tempDir();
  const { db, file } = demoDb(temp.dir);
  const keyId = issueKey(db, 'wro-1').id;
  db.close();
  return { temp, keyId, store: await openStore(file) };
}

/** An endpoint of the key on the fast receiver, and a deliverer that trusts it. */
async function onFast(store: Store, keyId: string) {
  const { endpoint } = await store.webhooks.add({ keyId, url: fast.receiver.url, events: ['listing.updated'] }, 'test');
  const ca = fast.receiver.ca;
  return {
    endpoint,
    deliverer: new Deliverer(store.webhooks, { publicUrl: 'https://x.example', allowPrivate: true, ca }),
  };
}

/** An import that moves the first wro-1 listing's price by `by`. */
async function changePrice(store: Store, by: number) {
  const json = demoJson();
  json.facilities.find((f) => f.id === 'wro-1').listings[0].price_gross += by;
  await store.applyImport(parseImport(JSON.stringify(json), 'changed.json'));
}

describe('isolation', () => {
  it('a receiver that does not answer holds only its endpoint', async () => {
    const { temp, keyId, store } = await demoStore();
    slow.receiver.state.delayMs = 60_000;
    const events = ['listing.updated'];
    const a = await store.webhooks.add({ keyId, url: fast.receiver.url, events }, 'test');
    const b = await store.webhooks.add({ keyId, url: slow.receiver.url, events }, 'test');
    for (let i = 0; i < 3; i++) {
      await store.webhooks.sendTest(a.endpoint.id, 'test');
      await store.webhooks.sendTest(b.endpoint.id, 'test');
    }
    // Each receiver has its own self-signed certificate: the sender trusts both.
    const ca = `${fast.receiver.ca}\n${slow.receiver.ca}`;
    const deliverer = new Deliverer(store.webhooks, {
      publicUrl: 'https://x.example',
      allowPrivate: true,
      ca,
      timeoutMs: 3000,
      pollMs: 50,
    });
    deliverer.start();
    try {
      await until('the fast endpoint has all three', () => fast.receiver.received.length === 3);
      expect(slow.receiver.received.length).toBeLessThanOrEqual(1);
      await until('the slow one timed out', async () =>
        (await store.webhooks.deliveries(b.endpoint.id)).some((d) => d.last_error !== null),
      );
      const log = await store.webhooks.deliveries(b.endpoint.id);
      expect(log.map((d) => d.status)).toEqual(['pending', 'pending', 'pending']);
      expect(log.at(-1)!.last_error).toBe('no answer within 3 s');
    } finally {
      await deliverer.stop();
      await store.close();
      temp.cleanup();
    }
  });

  it('endpoints in retry whose receivers never answer hold at most half the slots: a healthy one is sent to at once', async () => {
    const { temp, keyId, store } = await demoStore();
    slow.receiver.received.length = 0;
    fast.receiver.received.length = 0;
    slow.receiver.state.delayMs = 60_000;
    const events = ['listing.updated'];
    // Four endpoints in retry (their first attempt failed), as many as the deliverer's slots.
    for (let i = 0; i < 4; i++) {
      const { endpoint } = await store.webhooks.add({ keyId, url: slow.receiver.url, events }, 'test');
      const queued = await store.webhooks.sendTest(endpoint.id, 'test');
      await attempted(store.webhooks, endpoint.id, queued.id, 503);
    }
    const healthy = await store.webhooks.add({ keyId, url: fast.receiver.url, events }, 'test');
    const deliverer = new Deliverer(store.webhooks, {
      publicUrl: 'https://x.example',
      allowPrivate: true,
      ca: `${fast.receiver.ca}\n${slow.receiver.ca}`,
      concurrency: 4,
      timeoutMs: 60_000,
      pollMs: 50,
      now: () => Date.now() + 10_000, // their retries are due
    });
    deliverer.start();
    try {
      await until('the endpoints in retry are sent to', () => slow.receiver.received.length >= 2);
      await store.webhooks.sendTest(healthy.endpoint.id, 'test');
      await until('the healthy endpoint has its event', () => fast.receiver.received.length === 1, {
        timeoutMs: 3000,
      });
      expect(slow.receiver.received).toHaveLength(2);
    } finally {
      slow.receiver.hangUp();
      slow.receiver.state.delayMs = 0;
      await deliverer.stop();
      await store.close();
      temp.cleanup();
    }
  });

  it('while a send is under way, the loop waits for it instead of looking at the outbox again and again', async () => {
    const { temp, keyId, store } = await demoStore();
    slow.receiver.received.length = 0;
    slow.receiver.state.delayMs = 1500;
    const { endpoint } = await store.webhooks.add(
      { keyId, url: slow.receiver.url, events: ['listing.updated'] },
      'test',
    );
    await store.webhooks.sendTest(endpoint.id, 'test');
    const looks = { claim: 0, nextDue: 0 };
    const webhooks = {
      ...store.webhooks,
      claim: (...a: Parameters<typeof store.webhooks.claim>) => (looks.claim++, store.webhooks.claim(...a)),
      nextDue: (now: number) => (looks.nextDue++, store.webhooks.nextDue(now)),
    };
    const deliverer = new Deliverer(webhooks, {
      publicUrl: 'https://x.example',
      allowPrivate: true,
      ca: slow.receiver.ca,
    });
    deliverer.start();
    try {
      await until('the slow answer came', async () =>
        (await store.webhooks.deliveries(endpoint.id)).some((d) => d.status === 'delivered'),
      );
      // One claim, and a look or two per second of the default poll: not one per turn of the event loop.
      expect(looks.claim).toBeLessThanOrEqual(3);
      expect(looks.nextDue).toBeLessThanOrEqual(12);
    } finally {
      slow.receiver.state.delayMs = 0;
      await deliverer.stop();
      await store.close();
      temp.cleanup();
    }
  });

  it('endpoints with a backlog take turns: a turn ends, and the endpoint that waited longest goes next', async () => {
    const { temp, keyId, store } = await demoStore();
    fast.receiver.received.length = 0;
    const events = ['listing.updated'];
    const added = [
      await store.webhooks.add({ keyId, url: fast.receiver.url, events }, 'test'),
      await store.webhooks.add({ keyId, url: fast.receiver.url, events }, 'test'),
    ];
    // The endpoint a claim takes first when both are equal (the lower id) has the longer backlog.
    const [first, second] = added.map((a) => a.endpoint.id).sort();
    for (let i = 0; i < 6; i++) await store.webhooks.sendTest(first!, 'test');
    await store.webhooks.sendTest(second!, 'test');
    // Each look at the clock moves it 5 s on, so a turn (a lease less 20 s: 40 s) ends after a few sends.
    let clock = Date.now() + 10_000;
    const now = () => (clock += 5_000);
    const deliverer = new Deliverer(store.webhooks, {
      publicUrl: 'https://x.example',
      allowPrivate: true,
      ca: fast.receiver.ca,
      now,
      concurrency: 1,
    });
    try {
      for (let turn = 0; turn < 4; turn++) await deliverer.round();
      const order = fast.receiver.received.map(
        (r) => (JSON.parse(r.body) as { data: { endpoint: string } }).data.endpoint,
      );
      expect(order).toHaveLength(7);
      const secondAt = order.indexOf(second!);
      expect(secondAt).toBeGreaterThan(0);
      expect(order.lastIndexOf(first!)).toBeGreaterThan(secondAt);
    } finally {
      await store.close();
      temp.cleanup();
    }
  });

  it("frees at once the leases of a dead process of its own scope only, not those of a same-named host's", async () => {
    const { temp, keyId, store } = await demoStore();
    const dead = 2 ** 30; // above any pid_max: no process has it
    const events = ['listing.updated'];
    const claimAs = async (node: string) => {
      const { endpoint } = await store.webhooks.add({ keyId, url: fast.receiver.url, events }, 'test');
      await store.webhooks.sendTest(endpoint.id, 'test');
      const now = Date.now() + 1000;
      expect(await store.webhooks.claim(node, now, now + 60_000, 1, (e) => e)).toHaveLength(1);
      return endpoint.id;
    };
    try {
      const mine = await claimAs(`${processScope()}:${dead}:a`);
      // Another container or machine with this host name: its pids are not this process's to check.
      const theirs = await claimAs(`${hostname()}/another-boot/4026531836:${dead}:b`);
      const holders = async () => (await store.webhooks.leaseHolders(Date.now() + 2000)).map((h) => h.id);
      expect((await holders()).sort()).toEqual([mine, theirs].sort());
      const deliverer = new Deliverer(store.webhooks, { publicUrl: 'https://x.example', allowPrivate: true });
      await deliverer.freeDeadLeases();
      expect(await holders()).toEqual([theirs]);
    } finally {
      await store.close();
      temp.cleanup();
    }
  });

  it("a revoked key's endpoint is sent nothing it had queued, and refuses replays, tests and enabling", async () => {
    const { temp, keyId, store } = await demoStore();
    fast.receiver.received.length = 0;
    const { endpoint, deliverer } = await onFast(store, keyId);
    try {
      await store.webhooks.sendTest(endpoint.id, 'test');
      await deliverer.round();
      const [delivered] = await store.webhooks.deliveries(endpoint.id);
      expect(delivered).toMatchObject({ status: 'delivered' });
      await changePrice(store, 100);
      expect(await store.webhooks.deliveries(endpoint.id)).toHaveLength(2);
      await store.revokeKey(keyId);
      // A change after the revoke is not queued; the one queued before it is not sent.
      await changePrice(store, 200);
      expect(await store.webhooks.deliveries(endpoint.id)).toHaveLength(2);
      await deliverer.round();
      expect(fast.receiver.received).toHaveLength(1);
      expect((await store.webhooks.deliveries(endpoint.id))[0]).toMatchObject({ status: 'pending', attempts: 0 });
      const refused = { code: 'revoked_key', message: expect.stringContaining('is revoked') };
      await expect(store.webhooks.replay(delivered!.id, 'test')).rejects.toMatchObject(refused);
      await expect(store.webhooks.sendTest(endpoint.id, 'test')).rejects.toMatchObject(refused);
      await expect(store.webhooks.enable(endpoint.id, 'test')).rejects.toMatchObject(refused);
      await deliverer.round();
      expect(fast.receiver.received).toHaveLength(1);
    } finally {
      await store.close();
      temp.cleanup();
    }
  });

  it('takes a 2xx by its status line: a body that trickles past the time limit neither holds the send nor fails it', async () => {
    const { temp, keyId, store } = await demoStore();
    fast.receiver.received.length = 0;
    fast.receiver.state.trickle = true;
    fast.receiver.state.status = 200;
    const { endpoint } = await onFast(store, keyId);
    const ca = fast.receiver.ca;
    const deliverer = new Deliverer(store.webhooks, {
      publicUrl: 'https://x.example',
      allowPrivate: true,
      ca,
      timeoutMs: 1000,
    });
    try {
      await store.webhooks.sendTest(endpoint.id, 'test');
      await deliverer.round();
      expect(fast.receiver.received).toHaveLength(1);
      expect(await store.webhooks.deliveries(endpoint.id)).toMatchObject([
        { status: 'delivered', attempts: 1, last_code: 200, last_error: null },
      ]);
    } finally {
      fast.receiver.state.trickle = false;
      fast.receiver.state.status = 204;
      await store.close();
      temp.cleanup();
    }
  });

  it('takes the status of an answer whose body never ends', async () => {
    const { temp, keyId, store } = await demoStore();
    fast.receiver.received.length = 0;
    fast.receiver.state.endless = true;
    const { endpoint, deliverer } = await onFast(store, keyId);
    try {
      await store.webhooks.sendTest(endpoint.id, 'test');
      await deliverer.round();
      expect((await store.webhooks.deliveries(endpoint.id))[0]).toMatchObject({ status: 'delivered', last_code: 200 });
    } finally {
      fast.receiver.state.endless = false;
      await store.close();
      temp.cleanup();
    }
  });
});
