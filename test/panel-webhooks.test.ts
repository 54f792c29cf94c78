// A key's webhooks in the panel, in process: an endpoint added (its secret shown once, audited), a test event and its
// log, a disabled endpoint said so and enabled, replay, rotation, and a plain-http or private URL refused on the page
// with nothing added.
import { describe, expect, it } from 'vitest';
import { usePanel } from './helpers/panel.ts';
import { attempted } from './helpers/webhook-attempt.ts';

const panel = usePanel();
const { session } = panel.client;

describe('webhooks on a key in the panel', () => {
  it('adds an endpoint, sends a test event, shows the log, a disabled state, replay and rotation', async () => {
    const s = await session();
    const { info } = await panel.store.createKey({ facilityId: 'wro-1', prefix: 'svc', label: 'hooks' });
    const page = `/keys/${info.id}/webhooks`;
    expect(String((await s.as('GET', '/facilities/wro-1/api')).body)).toContain(`href="${page}"`);

    const added = await s.as('POST', page, { url: 'https://partner.example/hooks', events: 'listing.updated' });
    expect(added.status).toBe(303);
    const secret = /whsec_[A-Za-z0-9+/=]+/.exec(String((await s.as('GET', added.headers.location!)).body))![0];
    const [endpoint] = await panel.store.webhooks.list(info.id);
    expect(endpoint!.events).toEqual(['listing.updated']);
    expect(String((await s.as('GET', page)).body)).not.toContain(secret);

    expect(await s.as('POST', `/webhooks/${endpoint!.id}/test`)).toMatchObject({ status: 303 });
    const [sent] = await panel.store.webhooks.deliveries(endpoint!.id);
    expect([sent!.type, sent!.status]).toEqual(['webhook.test', 'pending']);
    const queued = String((await s.as('GET', page)).body);
    expect(queued).toContain('webhook.test');
    // Not sent yet: nothing to replay, on the page or by a forged form.
    expect(queued).not.toContain(`/deliveries/${sent!.id}/replay`);
    expect(await s.as('POST', `/deliveries/${sent!.id}/replay`)).toMatchObject({ status: 400 });
    expect(await panel.store.webhooks.deliveries(endpoint!.id)).toHaveLength(1);

    await attempted(panel.store.webhooks, endpoint!.id, sent!.id, 410);
    const disabled = String((await s.as('GET', page)).body);
    expect(disabled).toContain('410 Gone');
    // Tried but still pending: it goes out by itself after enable, so there is nothing to replay either.
    expect(disabled).not.toContain(`/deliveries/${sent!.id}/replay`);
    expect(await s.as('POST', `/deliveries/${sent!.id}/replay`)).toMatchObject({ status: 400 });
    expect(await s.as('POST', `/webhooks/${endpoint!.id}/enable`)).toMatchObject({ status: 303 });
    expect((await panel.store.webhooks.list(info.id))[0]!.disabled_at).toBeNull();

    await attempted(panel.store.webhooks, endpoint!.id, sent!.id, 204);
    expect(String((await s.as('GET', page)).body)).toContain(`/deliveries/${sent!.id}/replay`);
    expect(await s.as('POST', `/deliveries/${sent!.id}/replay`)).toMatchObject({ status: 303 });
    const log = await panel.store.webhooks.deliveries(endpoint!.id);
    expect(log.map((d) => d.message_id)).toEqual([sent!.message_id, sent!.message_id]);

    const rotation = await s.as('POST', `/webhooks/${endpoint!.id}/rotate`);
    const rotated = String((await s.as('GET', rotation.headers.location!)).body);
    expect(/whsec_[A-Za-z0-9+/=]+/.exec(rotated)![0]).not.toBe(secret);
    expect(String((await s.as('GET', page)).body)).toContain('previous secret also signs');

    const actions = (await panel.store.listAudit()).map((a) => a.action).filter((a) => a.startsWith('webhook.'));
    expect(actions.sort()).toEqual([
      'webhook.add',
      'webhook.enable',
      'webhook.replay',
      'webhook.rotate',
      'webhook.test',
    ]);
    expect(JSON.stringify(await panel.store.listAudit())).not.toContain(secret);
  });

  it('shows the delivery that holds up the queue above the newest, those behind it waiting for it, and a count', async () => {
    const s = await session();
    const { info } = await panel.store.createKey({ facilityId: 'wro-1', prefix: 'svc', label: 'queue' });
    const url = 'https://partner.example/queue';
    const { endpoint } = await panel.store.webhooks.add({ keyId: info.id, url, events: ['listing.updated'] }, 'test');
    const failing = await panel.store.webhooks.sendTest(endpoint.id, 'test');
    await attempted(panel.store.webhooks, endpoint.id, failing.id, 503);
    for (let i = 0; i < 21; i++) await panel.store.webhooks.sendTest(endpoint.id, 'test');
    const page = String((await s.as('GET', `/keys/${info.id}/webhooks`)).body);
    const rows = [...page.matchAll(/<tr data-delivery="(\d+)"[^]*?<\/tr>/g)];
    expect(rows).toHaveLength(21);
    expect(Number(rows[0]![1])).toBe(failing.id);
    expect(rows[0]![0]).toMatch(/<td>1<\/td>[^]*<td>503<\/td>/);
    expect(rows.slice(1).every((r) => r[0].includes(`data-waiting-for="${failing.id}"`))).toBe(true);
    expect(page).toContain('data-deliveries-hidden="1"');
  });

  it('refuses a plain-http URL on the page itself, naming the field, keeping what was typed, and adds nothing', async () => {
    const s = await session();
    const { info } = await panel.store.createKey({ facilityId: 'wro-1', prefix: 'svc', label: 'plain' });
    const answer = await s.as('POST', `/keys/${info.id}/webhooks`, {
      url: 'http://partner.example/',
      events: 'listing.updated',
    });
    expect(answer.status).toBe(400);
    expect(answer.headers['content-type']).toBe('text/html; charset=utf-8');
    const page = String(answer.body);
    expect(page).toContain(
      'role="alert" id="webhook-problem">The endpoint was not added: URL: must be an https:// URL',
    );
    expect(page).not.toContain('--url');
    expect(page).toContain('value="http://partner.example/" aria-invalid="true"');
    expect(page).toMatch(/value="listing\.updated" checked>/);
    expect(page).toMatch(/value="listing\.removed">/);
    expect(await panel.store.webhooks.list(info.id)).toEqual([]);
  });

  it('refuses a private address unless the panel runs with --webhooks-allow-private, as webhooks add does', async () => {
    const { info } = await panel.store.createKey({ facilityId: 'wro-1', prefix: 'svc', label: 'private' });
    const add = async () =>
      (await (
        await session()
      ).as('POST', `/keys/${info.id}/webhooks`, {
        url: 'https://10.0.0.5/hook',
        events: 'listing.updated',
      })) as { status: number; body: unknown };
    const refused = await add();
    expect(refused.status).toBe(400);
    expect(String(refused.body)).toContain('must not point at a loopback, private or link-local address');
    panel.handle = panel.over({ webhooksAllowPrivate: true });
    expect((await add()).status).toBe(303);
    expect((await panel.store.webhooks.list(info.id)).map((e) => e.url)).toEqual(['https://10.0.0.5/hook']);
  });
});
