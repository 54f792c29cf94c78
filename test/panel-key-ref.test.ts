// A key's partner reference in the panel: set at generation, changed in the edit form (audited, by who), refused with
// the rule when malformed or taken, and shown on the key's row.
import { describe, expect, it } from 'vitest';
import { usePanel } from './helpers/panel.ts';
import { recordKey } from './helpers/capture.ts';
import { MESSAGES } from '../server/panel/i18n/i18n.ts';

const KEY = /svc_live_[A-Za-z0-9]{32}/;
const panel = usePanel();
const { session } = panel.client;

describe("a key's ref in the panel", () => {
  it('is set at generation, defaults from the label, changes in the edit form, and is audited', async () => {
    const s = await session();
    const made = await s.as('POST', '/facilities/wro-1/keys', { label: 'Odra Movers', ref: 'odra' });
    expect(made.status).toBe(303);
    recordKey(KEY.exec(String((await s.as('GET', made.headers.location!)).body))![0]);
    const krak = await s.as('POST', '/facilities/wro-1/keys', { label: 'Krak Guide' });
    recordKey(KEY.exec(String((await s.as('GET', krak.headers.location!)).body))![0]);
    const keys = await panel.store.listKeys('wro-1');
    const odra = keys.find((k) => k.label === 'Odra Movers')!;
    expect(odra.ref).toBe('odra');
    expect(keys.find((k) => k.label === 'Krak Guide')!.ref).toBe('krak-guide');
    const tab = String((await s.as('GET', '/facilities/wro-1/api')).body);
    expect(tab).toContain('<code>odra</code>');
    expect(tab).toContain('name="ref"');

    expect(await s.as('POST', `/keys/${odra.id}`, { label: 'Odra Movers', ref: 'odra-movers' })).toMatchObject({
      status: 303,
    });
    expect((await panel.store.listKeys('wro-1')).find((k) => k.id === odra.id)!.ref).toBe('odra-movers');
    const [row] = (await panel.store.auditPage({ action: 'key.update', limit: 1 })).rows;
    expect(row).toMatchObject({ key_id: odra.id, detail: { ref: 'odra-movers' } });
    expect(row!.actor).toContain('@');
  });

  it('tells the edit form that an empty ref keeps it, and the generate form that it comes from the label', async () => {
    const s = await session();
    const odra = (await panel.store.createKey({ facilityId: 'wro-1', prefix: 'svc', label: 'Odra Movers' })).info;
    for (const lang of ['en', 'pl', 'de'] as const) {
      const t = MESSAGES[lang];
      const tab = String((await s.as('GET', '/facilities/wro-1/api', {}, { 'accept-language': lang })).body);
      const hintOf = (prefix: string) =>
        new RegExp(`<label for="${prefix}-ref">[^<]*<span class="muted">([^<]*)</span>`).exec(tab)?.[1];
      expect(hintOf('new')).toBe(t.refHint);
      expect(hintOf(odra.id)).toBe(t.refEditHint);
      expect(t.refEditHint).not.toBe(t.refHint);
    }
    // What the edit form's hint says: an empty ref keeps the key's.
    const kept = await s.as('POST', `/keys/${odra.id}`, { label: 'Odra Movers Sp.', ref: '' });
    expect(kept.status).toBe(303);
    expect((await panel.store.listKeys('wro-1')).find((k) => k.id === odra.id)!.ref).toBe(odra.ref);
  });

  it('refuses a malformed or taken ref with the rule, and changes nothing', async () => {
    const s = await session();
    const odra = (await panel.store.createKey({ facilityId: 'wro-1', prefix: 'svc', label: 'Odra Movers' })).info;
    await panel.store.createKey({ facilityId: 'wro-1', prefix: 'svc', label: 'Krak Guide' });
    const keys = await panel.store.listKeys('wro-1');
    const bad = await s.as('POST', `/keys/${odra.id}`, { label: 'Odra Movers', ref: 'Odra Movers!' });
    expect(String(bad.body)).toContain('a-z, 0-9');
    const taken = await s.as('POST', `/keys/${odra.id}`, { label: 'Odra Movers', ref: 'krak-guide' });
    expect(String(taken.body)).toContain('is taken');
    expect(await panel.store.listKeys('wro-1')).toEqual(keys);
  });
});
