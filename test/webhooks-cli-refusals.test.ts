// `listings webhooks` on either store: a filter naming no key or endpoint is bad input (exit 1, naming it) and not an
// empty table; `previous_until` is listed only while the previous secret still signs; a revoked key's endpoint is
// refused with the `revoked_key` code the docs name, while rotate and remove stay allowed.
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { EXIT_BAD_INPUT } from '../cli/program.ts';
import { openStore, type Store } from '../server/store/store.ts';
import { cliInProcess, demoImport } from './helpers/fixture.ts';
import { usePostgres } from './helpers/postgres.ts';
import { BACKENDS } from './helpers/setup.ts';

const postgres = usePostgres();
const HOUR = 3_600_000;

describe.each(BACKENDS)('webhooks on %s', (backend) => {
  let location: string;
  let store: Store;
  let keyId: string;
  let endpointId: string;
  const run = (args: string[]) => cliInProcess(location, ['webhooks', ...args]);

  beforeEach(async () => {
    location =
      backend === 'sqlite' ? join(postgres.dir(), `${randomUUID()}.db`) : await postgres.server().newDatabase();
    store = await openStore(location);
    await store.applyImport(demoImport());
    keyId = (await store.createKey({ facilityId: 'wro-1', prefix: 'svc' })).info.id;
    const url = 'https://partner.example/hooks';
    endpointId = (await store.webhooks.add({ keyId, url, events: ['listing.updated'] }, 'test')).endpoint.id;
    return () => store.close();
  });

  it('exits 1 naming an unknown key or endpoint filter, and 0 for a known one', async () => {
    for (const args of [['list'], ['list', '--json']]) {
      const unknown = await run([...args, '--key', 'key_nope']);
      expect([unknown.code, unknown.stdout]).toEqual([EXIT_BAD_INPUT, '']);
      expect(unknown.stderr).toContain('key_nope');
      expect((await run([...args, '--key', keyId])).code).toBe(0);
    }
    for (const args of [['deliveries'], ['deliveries', '--json']]) {
      const unknown = await run([...args, '--endpoint', 'whe_nope']);
      expect([unknown.code, unknown.stdout]).toEqual([EXIT_BAD_INPUT, '']);
      expect(unknown.stderr).toContain('whe_nope');
      expect((await run([...args, '--endpoint', endpointId])).code).toBe(0);
    }
  });

  it('lists previous_until while the previous secret signs, and not after', async () => {
    const listed = async () => JSON.parse((await run(['list', '--json'])).stdout)[0].previous_until;
    expect(await listed()).toBeNull();
    await store.webhooks.rotate(endpointId, 'test', Date.now() - 25 * HOUR);
    expect(await listed()).toBeNull();
    expect((await run(['list'])).stdout.split('\n')[1]).not.toMatch(/\d{4}-\d\d-\d\dT/);
    const rotatedAt = Date.now() - HOUR;
    await store.webhooks.rotate(endpointId, 'test', rotatedAt);
    expect(await listed()).toBe(new Date(rotatedAt + 24 * HOUR).toISOString());
  });

  it("refuses test, enable and replay of a revoked key's endpoint with revoked_key; rotate and remove are taken", async () => {
    const sent = await store.webhooks.sendTest(endpointId, 'test');
    await store.revokeKey(keyId);
    for (const args of [
      ['test', endpointId],
      ['enable', endpointId],
      ['replay', String(sent.id)],
    ]) {
      const refused = await run(args);
      expect(refused.code, args[0]).toBe(EXIT_BAD_INPUT);
      expect(refused.stderr, args[0]).toContain('revoked_key');
    }
    expect((await run(['rotate', endpointId])).code).toBe(0);
    expect((await run(['remove', endpointId])).code).toBe(0);
  });
});
