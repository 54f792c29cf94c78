// The panel's webhook form refuses as `listings webhooks add` does: an unknown event type is named (not dropped), and
// a revoked key's refusal is shown on its page; nothing is added either way.
import { describe, expect, it } from 'vitest';
import { cliInProcess } from './helpers/fixture.ts';
import { usePanel } from './helpers/panel.ts';

const panel = usePanel();

/** A form with a field given more than once, as a browser sends checked boxes. */
async function post(path: string, fields: [string, string][]) {
  const s = await panel.client.session();
  return panel.client.request('POST', path, {
    headers: { cookie: s.cookie, 'content-type': 'application/x-www-form-urlencoded' },
    body: Buffer.from(new URLSearchParams([['csrf', s.csrf], ...fields]).toString()),
  });
}

const decoded = (body: unknown) => String(body).replaceAll('&quot;', '"').replaceAll('&#39;', "'");

describe('the webhook form', () => {
  it('refuses an unknown event type naming it, with the rule the CLI gives, and adds nothing', async () => {
    const { info } = await panel.store.createKey({ facilityId: 'wro-1', prefix: 'svc', label: 'hooks' });
    const url = 'https://partner.example/h';
    const cli = await cliInProcess(panel.file, [
      ...['webhooks', 'add', '--key', info.id, '--url', url, '--events', 'listing.updated,bogus'],
    ]);
    expect(cli.code).toBe(2);
    const rule = /(bogus is not one of .*)$/m.exec(cli.stderr)![1]!;
    for (const events of [['listing.updated', 'bogus'], ['bogus']]) {
      const page = await post(`/keys/${info.id}/webhooks`, [
        ['url', url],
        ...events.map((e) => ['events', e] as [string, string]),
      ]);
      expect(page.status).toBe(400);
      expect(decoded(page.body)).toContain(rule);
    }
    expect(await panel.store.webhooks.list(info.id)).toEqual([]);
  });

  it("shows a revoked key's refusal, with the CLI's wording, and adds nothing", async () => {
    const { info } = await panel.store.createKey({ facilityId: 'wro-1', prefix: 'svc', label: 'hooks' });
    await panel.store.revokeKey(info.id);
    const url = 'https://partner.example/h';
    const cli = await cliInProcess(panel.file, ['webhooks', 'add', '--key', info.id, '--url', url]);
    expect(cli.code).toBe(1);
    const wording = new RegExp(`(${info.id} .*)$`, 'm').exec(cli.stderr)![1]!;
    const page = await post(`/keys/${info.id}/webhooks`, [
      ['url', url],
      ['events', 'listing.updated'],
    ]);
    expect(page.status).toBe(400);
    expect(decoded(page.body)).toMatch(/role="alert"/);
    expect(decoded(page.body)).toContain(wording);
    expect(await panel.store.webhooks.list(info.id)).toEqual([]);
  });

  it("says a revoked key's endpoint is stopped, offers only Remove, and answers a stale form with its page", async () => {
    const { info } = await panel.store.createKey({ facilityId: 'wro-1', prefix: 'svc', label: 'stopped' });
    const url = 'https://partner.example/stopped';
    const { endpoint } = await panel.store.webhooks.add({ keyId: info.id, url, events: ['listing.updated'] }, 'test');
    await panel.store.revokeKey(info.id);
    const s = await panel.client.session();
    const page = String((await s.as('GET', `/keys/${info.id}/webhooks`)).body);
    expect(page).toContain('data-endpoint-state="revoked_key"');
    for (const act of ['test', 'rotate', 'enable']) expect(page).not.toContain(`/webhooks/${endpoint.id}/${act}`);
    expect(page).toContain(`/webhooks/${endpoint.id}/remove`);
    for (const act of ['test', 'enable']) {
      const stale = await s.as('POST', `/webhooks/${endpoint.id}/${act}`);
      expect([stale.status, stale.headers['content-type']]).toEqual([400, 'text/html; charset=utf-8']);
      expect(String(stale.body)).toContain(`data-endpoint="${endpoint.id}"`);
      expect(String(stale.body)).toMatch(/role="alert"/);
    }
    expect(await panel.store.webhooks.deliveries(endpoint.id)).toEqual([]);
  });

  it("shows a refused replay on the key's page, as test, enable and remove do, with the CLI's wording", async () => {
    const { info } = await panel.store.createKey({ facilityId: 'wro-1', prefix: 'svc', label: 'replayed' });
    const url = 'https://partner.example/replayed';
    const { endpoint } = await panel.store.webhooks.add({ keyId: info.id, url, events: ['listing.updated'] }, 'test');
    const queued = await panel.store.webhooks.sendTest(endpoint.id, 'test');
    const cli = await cliInProcess(panel.file, ['webhooks', 'replay', String(queued.id)]);
    expect(cli.code).toBe(1);
    const wording = /(not delivered yet.*)$/m.exec(cli.stderr)![1]!;
    const s = await panel.client.session();
    const refused = await s.as('POST', `/deliveries/${queued.id}/replay`);
    expect([refused.status, refused.headers['content-type']]).toEqual([400, 'text/html; charset=utf-8']);
    expect(decoded(refused.body)).toContain(`data-endpoint="${endpoint.id}"`);
    expect(decoded(refused.body)).toMatch(/role="alert"/);
    expect(decoded(refused.body)).toContain(wording);
    expect(await panel.store.webhooks.deliveries(endpoint.id)).toHaveLength(1);
    expect((await s.as('POST', '/deliveries/999999/replay')).status).toBe(404);
  });
});
