// `listings webhooks` in process: the secret printed once and never listed, a test event in the log, replay (of what was
// sent only), and bad input refused with the field and rule named (exit 1 for a refused value, 2 for a malformed
// argument).
import { describe, expect, it } from 'vitest';
import { openStore } from '../server/store/store.ts';
import { cliInProcess, demoDb, issueKey, tempDir } from './helpers/fixture.ts';
import { attempted } from './helpers/webhook-attempt.ts';

function setup() {
  const temp = tempDir();
  const { db, file } = demoDb(temp.dir);
  const key = issueKey(db, 'wro-1').id;
  db.close();
  return { file, key, cleanup: temp.cleanup };
}

describe('listings webhooks', () => {
  it('adds an endpoint (secret once), lists it without the secret, queues a test event and replays it', async () => {
    const { file, key, cleanup } = setup();
    try {
      const url = 'https://partner.example/hooks';
      const added = await cliInProcess(file, [
        'webhooks',
        'add',
        '--key',
        key,
        '--url',
        url,
        '--events',
        'listing.updated',
        '--json',
      ]);
      expect(added.code).toBe(0);
      const { secret, id, events } = JSON.parse(added.stdout) as { secret: string; id: string; events: string[] };
      expect(secret).toMatch(/^whsec_/);
      expect(events).toEqual(['listing.updated']);
      const listed = await cliInProcess(file, ['webhooks', 'list', '--json']);
      expect(JSON.parse(listed.stdout)).toMatchObject([{ id, url, disabled_at: null }]);
      expect(listed.stdout).not.toContain(secret);

      expect((await cliInProcess(file, ['webhooks', 'test', id])).code).toBe(0);
      const log = JSON.parse((await cliInProcess(file, ['webhooks', 'deliveries', '--endpoint', id, '--json'])).stdout);
      expect(log).toMatchObject([{ type: 'webhook.test', status: 'pending', attempts: 0, endpoint_id: id }]);
      // Not sent yet: refused (it goes out by itself), as the panel refuses it.
      expect((await cliInProcess(file, ['webhooks', 'replay', String(log[0].id)])).code).toBe(1);
      const store = await openStore(file);
      await attempted(store.webhooks, id, log[0].id, 204).finally(() => store.close());
      const replay = await cliInProcess(file, ['webhooks', 'replay', String(log[0].id), '--json']);
      expect(replay.code).toBe(0);
      expect(JSON.parse(replay.stdout).message_id).toBe(log[0].message_id);
      const audit = await cliInProcess(file, ['audit', '--json']);
      expect(audit.stdout).not.toContain(secret);
      expect((await cliInProcess(file, ['webhooks', 'remove', id])).code).toBe(0);
      expect(JSON.parse((await cliInProcess(file, ['webhooks', 'list', '--json'])).stdout)).toEqual([]);
    } finally {
      cleanup();
    }
  });

  it('lists the delivery that holds up the queue first, however many wait behind it, and counts those not shown', async () => {
    const { file, key, cleanup } = setup();
    const store = await openStore(file);
    try {
      const { endpoint } = await store.webhooks.add(
        { keyId: key, url: 'https://partner.example/h', events: ['listing.updated'] },
        'test',
      );
      const failing = await store.webhooks.sendTest(endpoint.id, 'test');
      await attempted(store.webhooks, endpoint.id, failing.id, 503);
      for (let i = 0; i < 102; i++) await store.webhooks.sendTest(endpoint.id, 'test');
      const asJson = await cliInProcess(file, ['webhooks', 'deliveries', '--endpoint', endpoint.id, '--json']);
      const log = JSON.parse(asJson.stdout) as { id: number; attempts: number; waiting_for: number | null }[];
      expect(log).toHaveLength(101);
      expect(log[0]).toMatchObject({ id: failing.id, attempts: 1, last_code: 503, waiting_for: null });
      expect(log.slice(1).every((d) => d.waiting_for === failing.id)).toBe(true);
      expect(asJson.stderr).toMatch(/\b2\b/);
      const asTable = await cliInProcess(file, ['webhooks', 'deliveries', '--endpoint', endpoint.id]);
      const [header, first, second] = asTable.stdout.split('\n');
      expect(header).toMatch(/NEXT_AT\s+WAITING_FOR/);
      expect(first).toMatch(new RegExp(`^${failing.id}\\s.*\\s503\\s`));
      expect(second).toMatch(new RegExp(`\\s-\\s+${failing.id}\\s`));
    } finally {
      await store.close();
      cleanup();
    }
  });

  it("lists a revoked key's endpoints as stopped, with the reason revoked_key", async () => {
    const { file, key, cleanup } = setup();
    const store = await openStore(file);
    try {
      const url = 'https://partner.example/h';
      const { endpoint } = await store.webhooks.add({ keyId: key, url, events: ['listing.updated'] }, 'test');
      await store.revokeKey(key);
      const listed = await cliInProcess(file, ['webhooks', 'list', '--json']);
      expect(JSON.parse(listed.stdout)).toMatchObject([
        { id: endpoint.id, disabled_at: expect.any(String), disabled_reason: 'revoked_key' },
      ]);
      const table = (await cliInProcess(file, ['webhooks', 'list'])).stdout.split('\n')[1];
      expect(table).toMatch(/\srevoked_key\s/);
    } finally {
      await store.close();
      cleanup();
    }
  });

  it('refuses plain http, private addresses without the setting, unknown keys and event types, bad delivery ids', async () => {
    const { file, key, cleanup } = setup();
    try {
      const add = (url: string, ...more: string[]) =>
        cliInProcess(file, ['webhooks', 'add', '--key', key, '--url', url, ...more]);
      const http = await add('http://partner.example/');
      expect([http.code, http.stderr]).toEqual([2, expect.stringContaining('--url: must be an https:// URL')]);
      const loopback = await add('https://127.0.0.1:9443/');
      expect([loopback.code, loopback.stderr]).toEqual([2, expect.stringContaining('WEBHOOKS_ALLOW_PRIVATE')]);
      expect((await add('https://[fd00:ec2::254]/')).code).toBe(2);
      expect((await add('https://127.0.0.1:9443/', '--allow-private')).code).toBe(0);
      const events = await add('https://partner.example/', '--events', 'listing.sold');
      expect([events.code, events.stderr]).toEqual([2, expect.stringContaining('--events')]);
      const unknown = await cliInProcess(file, [
        'webhooks',
        'add',
        '--key',
        'key_nope',
        '--url',
        'https://partner.example/',
      ]);
      expect([unknown.code, unknown.stderr]).toEqual([1, expect.stringContaining('--key')]);
      expect((await cliInProcess(file, ['webhooks', 'replay', 'abc'])).code).toBe(2);
      expect((await cliInProcess(file, ['webhooks', 'replay', '999'])).code).toBe(1);
    } finally {
      cleanup();
    }
  });
});
