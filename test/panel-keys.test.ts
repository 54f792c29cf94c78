// Keys from the panel's API tab in process: a new key shown once, used at once on the API and refused on its next
// request after a revoke; label, origins and rate edited, a bad rate refused with nothing changed.
import { describe, expect, it } from 'vitest';
import { usePanel } from './helpers/panel.ts';
import { handlerOver, inject } from './helpers/inject.ts';
import { recordKey } from './helpers/capture.ts';

const KEY = /svc_live_[A-Za-z0-9]{32}/;

const panel = usePanel();
const { session } = panel.client;

describe('keys from the API tab', () => {
  it('shows a new key once, works at once on the API, and is refused on the next request after revoking', async () => {
    const s = await session();
    const made = await s.as('POST', '/facilities/wro-1/keys', {
      label: 'broker',
      origins: 'https://broker.example',
      rate: '20/s',
    });
    expect(made.status).toBe(303);
    expect(made.headers.location).not.toMatch(KEY);
    const shown = await s.as('GET', made.headers.location!);
    expect(shown.headers['cache-control']).toBe('no-store');
    const key = KEY.exec(String(shown.body))![0];
    // The run's final check looks for it in every log line written.
    recordKey(key);
    expect(String(shown.body)).toContain('will not be shown again');

    const api = handlerOver(panel.file);
    try {
      const get = () => inject(api, { url: '/external/listings', headers: { 'x-api-key': key } });
      expect((await get()).status).toBe(200);
      const tab = String((await s.as('GET', '/facilities/wro-1/api')).body);
      expect(tab).not.toContain(key);
      expect(tab).toContain(`...${key.slice(-4)}`);
      expect(tab).toContain('https://broker.example');
      expect(tab).toContain('20/s');
      const info = (await panel.store.listKeys('wro-1')).find((k) => k.label === 'broker')!;
      expect(String((await s.as('GET', `/keys/${info.id}/revoke`)).body)).toContain('Revoke key');
      expect(await s.as('POST', `/keys/${info.id}/revoke`)).toMatchObject({ status: 303 });
      expect((await get()).status).toBe(401);
    } finally {
      api.close();
    }
    const audit = await s.as('GET', '/audit');
    expect(String(audit.body)).toContain('key.revoke');
    expect(String(audit.body)).not.toContain(key);
    expect(JSON.stringify(await panel.store.listAudit())).not.toContain(key);
  });

  it('edits label, origins and rate; a bad rate is shown, nothing changed', async () => {
    const s = await session();
    await s.as('POST', '/facilities/wro-1/keys', { label: 'x' });
    const info = (await panel.store.listKeys('wro-1')).find((k) => k.label === 'x')!;
    expect(
      (
        await s.as('POST', `/keys/${info.id}`, {
          label: 'y',
          origins: 'https://a.example\nhttps://b.example',
          rate: '600/min',
        })
      ).status,
    ).toBe(303);
    expect((await panel.store.listKeys('wro-1')).find((k) => k.id === info.id)).toMatchObject({
      label: 'y',
      allowed_origins: ['https://a.example', 'https://b.example'],
      rate_per_s: 10,
    });
    const bad = await s.as('POST', `/keys/${info.id}`, { label: 'z', rate: 'fast' });
    expect(bad.status).toBe(400);
    expect((await panel.store.listKeys('wro-1')).find((k) => k.id === info.id)!.label).toBe('y');
  });
});
