// Webhooks on SQLite, in process: a loopback HTTPS receiver verifies every delivery with standardwebhooks (a price and a
// free unit count changed by an import, a promotion starting under an injected clock, a listing removed); the retry
// schedule, 410 disabling, and replay keeping the webhook-id.
import { beforeEach, describe, expect, it } from 'vitest';
import { parseImport } from '../server/domain/import.ts';
import { openStore, type Store } from '../server/store/store.ts';
import { Deliverer } from '../server/webhooks/deliverer.ts';
import { RETRY_DELAYS_MS } from '../server/webhooks/schedule.ts';
import { demoDb, demoJson, issueKey, promotionStarting, tempDir } from './helpers/fixture.ts';
import { useReceiver } from './helpers/webhook-receiver.ts';
import { handlerOver, inject } from './helpers/inject.ts';

const PUBLIC = 'https://listings.example';
const hooks = useReceiver();
let store: Store;
let keyId: string;
let apiKey: string;
let dbFile: string;
let clock: number;
const deliverer = () =>
  new Deliverer(store.webhooks, { publicUrl: PUBLIC, allowPrivate: true, ca: hooks.receiver.ca, now: () => clock });
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const importJson = (json: { facilities: any[] }) => store.applyImport(parseImport(JSON.stringify(json), 'test.json'));
const wro = (json: ReturnType<typeof demoJson>) => json.facilities.find((f) => f.id === 'wro-1');
const events = () => hooks.receiver.received.map((r) => r.verified);

beforeEach(async () => {
  const dir = tempDir();
  const { db, file } = demoDb(dir.dir);
  ({ id: keyId, key: apiKey } = issueKey(db, 'wro-1'));
  dbFile = file;
  db.close();
  store = await openStore(file);
  hooks.receiver.received.length = 0;
  hooks.receiver.state.status = 204;
  // A little ahead of the real clock: what the store queues now (at the real time) is due to the deliverer.
  clock = Date.now() + 10_000;
  return async () => {
    await store.close();
    dir.cleanup();
  };
});

async function addEndpoint(events?: string[]) {
  const added = await store.webhooks.add(
    {
      keyId,
      url: hooks.receiver.url,
      events: events ?? ['listing.updated', 'listing.added', 'listing.removed', 'facility.updated'],
    },
    'test',
  );
  hooks.receiver.state.secrets = [added.secret];
  return added;
}

describe('events from changes', () => {
  it('an import that changes a price and a free unit count, then removes a listing, sends verified events', async () => {
    const { endpoint, secret } = await addEndpoint();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    const json = demoJson();
    const [a, b] = wro(json).listings;
    a.price_gross += 1000;
    b.free_units -= 1;
    await importJson(json);
    const d = deliverer();
    await d.round();
    expect(hooks.receiver.received).toHaveLength(2);
    expect(hooks.receiver.received.every((r) => r.verified !== undefined)).toBe(true);
    const [first, second] = events() as {
      type: string;
      data: {
        listing: { id: string; code: string; rent_url: string; free_units: number };
        changed: string[];
        facility: { id: string };
      };
    }[];
    expect(first!.type).toBe('listing.updated');
    expect(first!.data.listing.code).toBe(a.code);
    expect(first!.data.changed).toContain('price');
    expect(first!.data.facility.id).toBe('wro-1');
    expect(first!.data.listing.rent_url).toBe(`${PUBLIC}/rent/wro-1/${encodeURIComponent(a.code)}`);
    expect(second!.data.listing.code).toBe(b.code);
    expect(second!.data.changed).toContain('free_units');
    expect(second!.data.listing.free_units).toBe(b.free_units);
    // The Detail the API answers now, byte for byte as JSON: one rendering for both.
    const api = handlerOver(dbFile, { publicUrl: PUBLIC });
    try {
      const url = `/external/listings/${encodeURIComponent(second!.data.listing.id)}`;
      const answer = await inject(api, { url, headers: { 'x-api-key': apiKey } });
      expect(answer.status).toBe(200);
      const body = JSON.parse(answer.body.toString()) as { listing?: unknown };
      expect(body.listing ?? body).toEqual(second!.data.listing);
    } finally {
      api.close();
    }

    wro(json).listings.splice(2, 1);
    const removed = wro(demoJson()).listings[2];
    await importJson(json);
    await d.round();
    expect(hooks.receiver.received).toHaveLength(3);
    const gone = events()[2] as { type: string; data: { listing: { code: string } } };
    expect(gone.type).toBe('listing.removed');
    expect(gone.data.listing.code).toBe(removed.code);
    const log = await store.webhooks.deliveries(endpoint.id);
    expect(log.map((l) => [l.status, l.attempts, l.last_code])).toEqual([
      ['delivered', 1, 204],
      ['delivered', 1, 204],
      ['delivered', 1, 204],
    ]);
  });

  it('a re-import that changes nothing sends nothing; an endpoint gets only the types it asked for', async () => {
    await addEndpoint(['listing.removed']);
    const json = demoJson();
    await importJson(json);
    wro(json).listings[0].price_gross += 1;
    await importJson(json);
    await deliverer().round();
    expect(hooks.receiver.received).toHaveLength(0);
    expect(await store.webhooks.deliveries()).toHaveLength(0);
  });

  it('coalesces: changes not yet sent for one listing leave one event holding every changed field', async () => {
    const { endpoint } = await addEndpoint();
    const json = demoJson();
    wro(json).listings[0].price_gross += 1000;
    await importJson(json);
    wro(json).listings[0].title = 'Renamed';
    await importJson(json);
    expect(await store.webhooks.deliveries(endpoint.id)).toHaveLength(1);
    await deliverer().round();
    const [event] = events() as { data: { changed: string[]; listing: { title: string } } }[];
    expect(event!.data.changed).toEqual(expect.arrayContaining(['price', 'title']));
    expect(event!.data.listing.title).toBe('Renamed');
  });

  it('a promotion that starts sends its listing.updated at that instant (injected clock)', async () => {
    await addEndpoint(['listing.updated']);
    const d = deliverer();
    await d.round(); // the promotion clock starts here
    const starts = Math.ceil((clock + 60_000) / 1000) * 1000;
    const json = demoJson();
    const listing = wro(json).listings[0];
    listing.promotions = [promotionStarting('SPRING', 'Spring', starts)];
    await importJson(json);
    await d.round();
    const before = hooks.receiver.received.length;
    clock = starts - 1000;
    await d.round();
    expect(hooks.receiver.received).toHaveLength(before);
    clock = starts;
    await d.round();
    expect(hooks.receiver.received).toHaveLength(before + 1);
    const event = hooks.receiver.received.at(-1)!.verified as {
      timestamp: string;
      data: { changed: string[]; listing: { promotions: { code: string }[] } };
    };
    expect(event.timestamp).toBe(new Date(starts).toISOString());
    expect(event.data.changed).toContain('promotions');
    expect(event.data.listing.promotions.map((p) => p.code)).toEqual(['SPRING']);
  });

  it('an endpoint added after a promotion started is not told of that start', async () => {
    const early = await addEndpoint(['listing.updated']);
    const d = deliverer();
    await d.round();
    const starts = Math.ceil((clock + 60_000) / 1000) * 1000;
    const json = demoJson();
    wro(json).listings[0].promotions = [promotionStarting('SPRING', 'Spring', starts)];
    await importJson(json);
    await d.round();
    const late = await store.webhooks.add(
      { keyId, url: hooks.receiver.url, events: ['listing.updated'] },
      'test',
      starts + 1000,
    );
    clock = starts + 2000;
    await d.round();
    const [told] = await store.webhooks.deliveries(early.endpoint.id);
    expect(told).toMatchObject({ type: 'listing.updated', status: 'delivered' });
    expect(await store.webhooks.deliveries(late.endpoint.id)).toEqual([]);
  });
});

describe('delivery', () => {
  it('retries on the schedule (0 s, 5 s, 5 min, ... 24 h), then disables the endpoint', async () => {
    const { endpoint } = await addEndpoint();
    hooks.receiver.state.status = 500;
    const t0 = clock;
    await store.webhooks.sendTest(endpoint.id, 'test', t0);
    const d = deliverer();
    let at = t0;
    const tries: number[] = [];
    for (let i = 0; i < RETRY_DELAYS_MS.length; i++) {
      at += RETRY_DELAYS_MS[i]!;
      clock = at - 1;
      await d.round();
      expect(hooks.receiver.received).toHaveLength(i);
      clock = at;
      await d.round();
      expect(hooks.receiver.received).toHaveLength(i + 1);
      const [log] = await store.webhooks.deliveries(endpoint.id);
      tries.push(log!.attempts);
      expect(log!.last_code).toBe(500);
    }
    expect(tries).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    const [log] = await store.webhooks.deliveries(endpoint.id);
    expect([log!.status, log!.next_at]).toEqual(['pending', null]); // it waits for enable
    const [listed] = await store.webhooks.list(keyId);
    expect(listed!.disabled_reason).toBe('retries_exhausted');
    expect(new Set(hooks.receiver.received.map((r) => r.id)).size).toBe(1);
  });

  it("checks the receiver's certificate: trusted through `ca`, refused by a sender that does not trust it", async () => {
    const { endpoint } = await addEndpoint();
    await store.webhooks.sendTest(endpoint.id, 'test');
    await deliverer().round();
    expect(hooks.receiver.received).toHaveLength(1);
    await store.webhooks.sendTest(endpoint.id, 'test');
    const untrusting = new Deliverer(store.webhooks, { publicUrl: PUBLIC, allowPrivate: true, now: () => clock });
    await untrusting.round();
    expect(hooks.receiver.received).toHaveLength(1);
    const [refused] = await store.webhooks.deliveries(endpoint.id);
    expect(refused).toMatchObject({ status: 'pending', attempts: 1, last_code: null });
    expect(refused!.last_error).toMatch(/CERT|SELF_SIGNED/);
  });

  it('410 Gone disables the endpoint at once', async () => {
    const { endpoint } = await addEndpoint();
    hooks.receiver.state.status = 410;
    await store.webhooks.sendTest(endpoint.id, 'test');
    await store.webhooks.sendTest(endpoint.id, 'test');
    await deliverer().round();
    expect(hooks.receiver.received).toHaveLength(1);
    const [listed] = await store.webhooks.list(keyId);
    expect([listed!.disabled_reason, listed!.disabled_at !== null]).toEqual(['gone', true]);
    const log = await store.webhooks.deliveries(endpoint.id);
    expect(log.map((l) => [l.status, l.attempts, l.last_code])).toEqual([
      ['pending', 0, null],
      ['pending', 1, 410],
    ]);
  });

  it('a change made while the endpoint is disabled goes out after enable, after the events waiting before it', async () => {
    const { endpoint } = await addEndpoint(['listing.updated']);
    hooks.receiver.state.status = 410;
    await store.webhooks.sendTest(endpoint.id, 'test');
    await store.webhooks.sendTest(endpoint.id, 'test');
    const d = deliverer();
    await d.round();
    const json = demoJson();
    wro(json).listings[0].price_gross += 500;
    await importJson(json);
    hooks.receiver.state.status = 204;
    await d.round();
    expect(hooks.receiver.received).toHaveLength(1);
    await store.webhooks.enable(endpoint.id, 'test');
    await d.round();
    // The test event the 410 answered goes out again first, with its webhook-id.
    expect(events().map((e) => (e as { type: string }).type)).toEqual([
      'webhook.test',
      'webhook.test',
      'webhook.test',
      'listing.updated',
    ]);
    const [gone, again] = hooks.receiver.received;
    expect(again!.id).toBe(gone!.id);
    const [, , , changed] = events() as { data: { changed: string[]; listing: { code: string } } }[];
    expect(changed!.data.listing.code).toBe(wro(json).listings[0].code);
    expect(changed!.data.changed).toContain('price');
  });

  it('replay sends the same webhook-id and bytes again, signed anew', async () => {
    const { endpoint } = await addEndpoint();
    const sent = await store.webhooks.sendTest(endpoint.id, 'test');
    const d = deliverer();
    await d.round();
    await store.webhooks.replay(sent.id, 'test');
    await d.round();
    expect(hooks.receiver.received).toHaveLength(2);
    const [a, b] = hooks.receiver.received;
    expect(b!.id).toBe(a!.id);
    expect(b!.body).toBe(a!.body);
    expect(b!.verified).toEqual(a!.verified);
    const audit = await store.listAudit({ action: 'webhook.replay' });
    expect(audit).toHaveLength(1);
  });

  it('during a rotation both secrets sign, so a receiver with either verifies', async () => {
    const { endpoint, secret: old } = await addEndpoint();
    const { secret } = await store.webhooks.rotate(endpoint.id, 'test');
    hooks.receiver.state.secrets = [old];
    await store.webhooks.sendTest(endpoint.id, 'test');
    await deliverer().round();
    hooks.receiver.state.secrets = [secret];
    await store.webhooks.sendTest(endpoint.id, 'test');
    await deliverer().round();
    expect(hooks.receiver.received.map((r) => r.signature.split(' ').length)).toEqual([2, 2]);
    expect(hooks.receiver.received.every((r) => r.verified !== undefined)).toBe(true);
  });

  it('refuses private addresses unless allowed, without sending', async () => {
    const { endpoint } = await addEndpoint();
    await store.webhooks.sendTest(endpoint.id, 'test');
    await new Deliverer(store.webhooks, {
      publicUrl: PUBLIC,
      allowPrivate: false,
      ca: hooks.receiver.ca,
      now: () => clock,
    }).round();
    expect(hooks.receiver.received).toHaveLength(0);
    const [log] = await store.webhooks.deliveries(endpoint.id);
    expect([log!.status, log!.last_code, log!.last_error]).toEqual(['pending', null, '127.0.0.1 is a private address']);
  });

  it('checks the address a name resolves to where the socket connects (localhost refused, then allowed)', async () => {
    const { port } = new URL(hooks.receiver.url);
    const byName = await store.webhooks.add(
      { keyId, url: `https://localhost:${port}/hooks`, events: ['listing.updated'] },
      'test',
    );
    hooks.receiver.state.secrets = [byName.secret];
    await store.webhooks.sendTest(byName.endpoint.id, 'test');
    const send = (allowPrivate: boolean) =>
      new Deliverer(store.webhooks, {
        publicUrl: PUBLIC,
        allowPrivate,
        ca: hooks.receiver.ca,
        now: () => clock,
      }).round();
    await send(false);
    expect(hooks.receiver.received).toHaveLength(0);
    expect((await store.webhooks.deliveries(byName.endpoint.id))[0]!.last_error).toBe('EPRIVATEADDRESS');
    clock += 5000;
    await send(true);
    expect(hooks.receiver.received.map((r) => r.verified?.type)).toEqual(['webhook.test']);
  });
});
