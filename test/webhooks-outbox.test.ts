// The outbox's rules on SQLite and on PostgreSQL alike, against a loopback receiver under an injected clock: the event
// whose attempt disabled an endpoint goes out first after enable, a promotion boundary an import already told sends
// nothing more, a coalesced event's `changed` follows its type, the log keeps a delivery 30 days after it ended, and a
// replay is of what was sent.
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { parseImport } from '../server/domain/import.ts';
import { openStore, type Store } from '../server/store/store.ts';
import { Deliverer } from '../server/webhooks/deliverer.ts';
import { RETRY_DELAYS_MS } from '../server/webhooks/schedule.ts';
import { demoJson, promotionStarting } from './helpers/fixture.ts';
import { usePostgres } from './helpers/postgres.ts';
import { until } from './helpers/wait.ts';
import { useReceiver } from './helpers/webhook-receiver.ts';

const postgres = usePostgres();
const hooks = useReceiver();
const DAY = 86_400_000;
const ALL = ['listing.updated', 'listing.added', 'listing.removed', 'facility.updated'];

const backends: Record<string, () => Promise<Store>> = {
  sqlite: () => openStore(join(hooks.dir, `${randomUUID()}.db`)),
  postgres: async () => openStore(await postgres.server().newDatabase()),
};

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = { facilities: any[] };
const wro = (json: Json) => json.facilities.find((f) => f.id === 'wro-1');
/** The demo data without its promotions, whose ends this suite's clock may reach one day: each test adds its own. */
function baseJson(): Json {
  const json = demoJson();
  for (const l of wro(json).listings) delete l.promotions;
  return json;
}
const byCode = (json: Json, code: string) => wro(json).listings.find((l: { code: string }) => l.code === code);
const received = () => hooks.receiver.received.map((r) => ({ id: r.id, body: r.body, ...r.verified! }));

describe.each(Object.keys(backends))('the outbox on %s', (backend) => {
  let store: Store;
  let endpointId: string;
  let clock: number;
  const deliverer = () =>
    new Deliverer(store.webhooks, {
      publicUrl: 'https://x.example',
      allowPrivate: true,
      ca: hooks.receiver.ca,
      now: () => clock,
    });
  const importJson = (json: Json) => store.applyImport(parseImport(JSON.stringify(json), 'test.json'));
  /** Imports the base data with XS-01 given a promotion starting at `starts`; the data imported, for more changes. */
  const importPromotion = async (code: string, starts: number) => {
    const json = baseJson();
    byCode(json, 'XS-01').promotions = [promotionStarting(code, code, starts)];
    await importJson(json);
    return json;
  };
  const log = () => store.webhooks.deliveries(endpointId);
  const endpoint = async () => (await store.webhooks.list()).find((e) => e.id === endpointId)!;

  beforeEach(async () => {
    store = await backends[backend]!();
    await importJson(baseJson());
    const key = await store.createKey({ facilityId: 'wro-1', prefix: 'svc' });
    // Added ten minutes back: it hears of promotions that started in the last minutes.
    const since = Date.now() - 600_000;
    const added = await store.webhooks.add({ keyId: key.info.id, url: hooks.receiver.url, events: ALL }, 'test', since);
    endpointId = added.endpoint.id;
    hooks.receiver.state.secrets = [added.secret];
    hooks.receiver.state.status = 204;
    hooks.receiver.received.length = 0;
    clock = Date.now() + 10_000;
    return () => store.close();
  });

  describe('the event whose attempt disabled the endpoint', () => {
    it('after a 410 waits first in line, and goes out after enable with its webhook-id and bytes', async () => {
      const json = baseJson();
      wro(json).listings = wro(json).listings.filter((l: { code: string }) => l.code !== 'S-03');
      await importJson(json);
      hooks.receiver.state.status = 410;
      const d = deliverer();
      await d.round();
      const [gone] = received();
      expect(gone!.type).toBe('listing.removed');
      expect(await endpoint()).toMatchObject({ disabled_reason: 'gone' });
      expect(await log()).toMatchObject([
        { type: 'listing.removed', status: 'pending', attempts: 1, last_code: 410, next_at: null },
      ]);

      byCode(json, 'XS-01').price_gross += 500;
      await importJson(json);
      hooks.receiver.state.status = 204;
      await d.round();
      expect(received()).toHaveLength(1);
      clock += 60_000;
      await store.webhooks.enable(endpointId, 'test', clock);
      const [, waiting] = await log();
      expect(waiting).toMatchObject({ attempts: 0, last_code: 410, next_at: new Date(clock).toISOString() });
      await d.round();
      const [, again, updated] = received();
      expect([again!.id, again!.body]).toEqual([gone!.id, gone!.body]);
      expect([updated!.type, updated!.data.listing.code]).toEqual(['listing.updated', 'XS-01']);
      expect((await log()).map((l) => [l.type, l.status, l.attempts, l.last_code])).toEqual([
        ['listing.updated', 'delivered', 1, 204],
        ['listing.removed', 'delivered', 1, 204],
      ]);
    });

    it('after the last retry waits too, and enable gives it a fresh schedule (0 s, then 5 s)', async () => {
      const json = baseJson();
      byCode(json, 'XS-01').price_gross += 500;
      await importJson(json);
      const [queued] = await log();
      hooks.receiver.state.status = 500;
      const d = deliverer();
      let at = Date.parse(queued!.created_at);
      for (const delay of RETRY_DELAYS_MS) {
        clock = at += delay;
        await d.round();
      }
      expect(received()).toHaveLength(RETRY_DELAYS_MS.length);
      expect(await endpoint()).toMatchObject({ disabled_reason: 'retries_exhausted' });
      expect(await log()).toMatchObject([{ status: 'pending', attempts: 10, last_code: 500, next_at: null }]);

      clock += DAY;
      await store.webhooks.enable(endpointId, 'test', clock);
      await d.round();
      expect(await endpoint()).toMatchObject({ disabled_at: null });
      expect(await log()).toMatchObject([
        { status: 'pending', attempts: 1, next_at: new Date(clock + RETRY_DELAYS_MS[1]!).toISOString() },
      ]);
      hooks.receiver.state.status = 204;
      clock += RETRY_DELAYS_MS[1]!;
      await d.round();
      expect(await log()).toMatchObject([{ status: 'delivered', attempts: 2, last_code: 204 }]);
      expect(new Set(received().map((r) => r.id))).toEqual(new Set([queued!.message_id]));
    });
  });

  describe('promotion boundaries', () => {
    it('one an import adds after the fact sends nothing beyond the import’s own event', async () => {
      const d = deliverer();
      const started = Date.now() - 3_000;
      clock = started;
      await d.round(); // the promotion clock starts here
      const starts = Math.floor(Date.now() / 1000) * 1000 - 1_000;
      await importPromotion('LATE', starts);
      const [own] = await log();
      // The clock's next look sees the import and its promotion, and sends nothing more: the import's event told of it.
      clock = started + 9_000;
      await d.round();
      expect(received()).toHaveLength(1);
      clock = started + 20_000;
      await d.round();
      expect(received().map((e) => [e.type, e.timestamp])).toEqual([['listing.updated', own!.created_at]]);
      expect(received()[0]!.data.listing.promotions.map((p: { code: string }) => p.code)).toEqual(['LATE']);
      expect(await log()).toHaveLength(1);
    });

    it('one an import adds seconds ahead goes out at its instant: the import makes the clock look again', async () => {
      const d = deliverer();
      clock = Date.now();
      await d.round(); // the promotion clock starts here, and reads the boundaries ahead: none
      const starts = Math.ceil((clock + 4_000) / 1000) * 1000;
      await importPromotion('SOON', starts);
      clock = starts - 1_000;
      await d.round();
      expect(received()).toEqual([]); // a promotion ahead is no part of the API's answers yet
      clock = starts;
      await d.round();
      expect(received().map((e) => [e.type, e.timestamp, e.data.listing.code])).toEqual([
        ['listing.updated', new Date(starts).toISOString(), 'XS-01'],
      ]);
    });

    it('one passed while no server ran is sent on restart, at its instant, though an import came since', async () => {
      const first = deliverer();
      clock = Date.now() - 60_000;
      await first.round();
      const starts = Math.ceil((Date.now() + 2_000) / 1000) * 1000;
      const json = await importPromotion('SOON', starts);
      clock = starts - 1_000;
      await first.round();
      expect(received()).toEqual([]); // a promotion ahead is no part of the API's answers yet
      await first.stop();

      await until('the promotion started', () => Date.now() > starts);
      byCode(json, 'S-03').price_gross += 500;
      await importJson(json);
      clock = Date.now() + 5_000;
      await deliverer().round();
      const [other, boundary] = received();
      expect(other!.data.listing.code).toBe('S-03');
      expect([boundary!.data.listing.code, boundary!.timestamp]).toEqual(['XS-01', new Date(starts).toISOString()]);
      expect(boundary!.data.changed).toContain('promotions');
      expect(received()).toHaveLength(2);
    });

    it('one passed while no server ran, its listing changed by an import since, is named in that import’s event', async () => {
      const first = deliverer();
      clock = Date.now() - 60_000;
      await first.round();
      const starts = Math.ceil((Date.now() + 1_000) / 1000) * 1000;
      const json = await importPromotion('SOON', starts);
      await first.stop();
      expect(await log()).toEqual([]); // a promotion ahead is no part of the API's answers yet

      await until('the promotion started', () => Date.now() > starts);
      byCode(json, 'XS-01').free_units += 1;
      await importJson(json);
      clock = Date.now() + 5_000;
      await deliverer().round();
      const [told, ...more] = received();
      expect(more).toEqual([]); // one event per change: the instant sends nothing beside the import's event
      expect([told!.type, told!.data.listing.code]).toEqual(['listing.updated', 'XS-01']);
      expect(told!.data.listing.promotions.map((p: { code: string }) => p.code)).toEqual(['SOON']);
      expect(told!.data.changed).toEqual(expect.arrayContaining(['free_units', 'promotions', 'schedule', 'move_in']));
    });
  });

  describe('coalescing', () => {
    it('a listing changed, then removed before delivery, is one listing.removed with changed []', async () => {
      const json = baseJson();
      byCode(json, 'XS-01').price_gross += 500;
      await importJson(json);
      wro(json).listings = wro(json).listings.filter((l: { code: string }) => l.code !== 'XS-01');
      await importJson(json);
      expect((await log()).map((l) => l.type)).toEqual(['listing.removed']);
      await deliverer().round();
      const [removed] = received();
      expect([removed!.type, removed!.data.changed]).toEqual(['listing.removed', []]);
    });

    it('a listing added, then changed before delivery, is one listing.added naming every field of its Detail', async () => {
      const json = baseJson();
      const fresh = { ...structuredClone(byCode(json, 'XS-01')), code: 'XS-99' };
      wro(json).listings.push(fresh);
      await importJson(json);
      fresh.price_gross += 500;
      await importJson(json);
      expect((await log()).map((l) => l.type)).toEqual(['listing.added']);
      await deliverer().round();
      const [added] = received();
      expect(added!.type).toBe('listing.added');
      expect(added!.data.changed).toEqual(Object.keys(added!.data.listing));
    });
  });

  describe('the log', () => {
    it('keeps a delivery 30 days after it was delivered, however long it waited, and never drops one pending', async () => {
      const queuedAt = clock - 40 * DAY;
      await store.webhooks.sendTest(endpointId, 'test', queuedAt);
      const d = deliverer();
      await d.round();
      expect(await log()).toMatchObject([{ status: 'delivered', created_at: new Date(queuedAt).toISOString() }]);
      clock += 2 * 3_600_000; // past the next hourly pruning
      await d.round();
      expect(await log()).toHaveLength(1);

      hooks.receiver.state.status = 500;
      await store.webhooks.sendTest(endpointId, 'test', queuedAt);
      await d.round();
      clock += 31 * DAY;
      await d.round();
      expect(await log()).toMatchObject([{ status: 'pending', attempts: 2 }]);
      await store.webhooks.prune(Number.MAX_SAFE_INTEGER);
      expect(await log()).toMatchObject([{ status: 'pending' }]);
    });

    it('shows the delivery that holds up the queue first, above the newest, and those behind it wait for it', async () => {
      const json = baseJson();
      byCode(json, 'XS-01').price_gross += 500;
      await importJson(json);
      hooks.receiver.state.status = 503;
      await deliverer().round();
      const [failing] = await log();
      const tests: number[] = [];
      for (let i = 0; i < 4; i++) tests.push((await store.webhooks.sendTest(endpointId, 'test', clock)).id);

      const { shown, hidden } = await store.webhooks.deliveryLog(endpointId, 3);
      expect(shown.map((d) => d.id)).toEqual([failing!.id, tests[3], tests[2], tests[1]]);
      expect(shown[0]).toMatchObject({
        status: 'pending',
        attempts: 1,
        last_code: 503,
        next_at: new Date(clock + RETRY_DELAYS_MS[1]!).toISOString(),
        waiting_for: null,
      });
      expect(shown.slice(1).map((d) => [d.type, d.next_at, d.waiting_for])).toEqual(
        Array(3).fill(['webhook.test', null, failing!.id]),
      );
      expect(hidden).toBe(1);
      // The head among the newest keeps its place in the log: nothing is shown twice.
      const all = await store.webhooks.deliveryLog(endpointId, 10);
      expect([all.shown.length, all.hidden, all.shown.at(-1)!.id]).toEqual([5, 0, failing!.id]);
    });
  });

  describe("a revoked key's endpoint", () => {
    it('is listed as stopped (revoked_key), and its pending deliveries show no next try', async () => {
      await store.webhooks.sendTest(endpointId, 'test');
      const { key_id } = await endpoint();
      const revoked = await store.revokeKey(key_id);
      expect(await endpoint()).toMatchObject({ disabled_at: revoked.revoked_at, disabled_reason: 'revoked_key' });
      expect(await log()).toMatchObject([{ status: 'pending', next_at: null }]);
      await deliverer().round();
      expect(received()).toEqual([]);
    });
  });

  describe('replay', () => {
    it('refuses a delivery tried and still pending: its retry, or enable, sends it', async () => {
      const failing = await store.webhooks.sendTest(endpointId, 'test');
      hooks.receiver.state.status = 503;
      await deliverer().round();
      expect(await log()).toMatchObject([{ id: failing.id, status: 'pending', attempts: 1, last_code: 503 }]);
      await expect(store.webhooks.replay(failing.id, 'test')).rejects.toMatchObject({ code: 'not_sent' });
      expect(await log()).toHaveLength(1);
    });

    it('refuses an event not sent yet, and a replay of a sent one survives the changes queued after it', async () => {
      const test = await store.webhooks.sendTest(endpointId, 'test');
      await expect(store.webhooks.replay(test.id, 'test')).rejects.toMatchObject({ code: 'not_sent' });
      expect(await log()).toHaveLength(1);
      expect(await store.listAudit({ action: 'webhook.replay' })).toEqual([]);

      const json = baseJson();
      byCode(json, 'XS-01').price_gross += 500;
      await importJson(json);
      const d = deliverer();
      await d.round();
      const [sent] = await log();
      await store.webhooks.replay(sent!.id, 'test');
      byCode(json, 'XS-01').price_gross += 500;
      await importJson(json);
      expect((await log()).map((l) => [l.message_id === sent!.message_id, l.status])).toEqual([
        [false, 'pending'],
        [true, 'pending'],
        [true, 'delivered'],
        [false, 'delivered'],
      ]);
      await d.round();
      const [, first, replayed, newer] = received();
      expect([replayed!.id, replayed!.body]).toEqual([first!.id, first!.body]);
      expect([newer!.id === first!.id, newer!.data.listing.price.gross > first!.data.listing.price.gross]).toEqual([
        false,
        true,
      ]);
    });
  });
});
