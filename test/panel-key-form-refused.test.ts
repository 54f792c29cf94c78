// A key form the server refuses comes back as the API tab with the message and every value as it was typed: the
// generate form (a taken ref, a bad rate) and a key's edit form alike, nothing made or changed.
import { describe, expect, it } from 'vitest';
import { usePanel } from './helpers/panel.ts';

const panel = usePanel();

/** What a field of the page holds, as the browser shows it (an input's value, a textarea's text). */
function valueOf(page: string, id: string): string | undefined {
  const input = new RegExp(`<input id="${id}"[^>]*value="([^"]*)"`).exec(page);
  const area = new RegExp(`<textarea id="${id}"[^>]*>([^<]*)</textarea>`).exec(page);
  return (input ?? area)?.[1]?.replaceAll('&quot;', '"').replaceAll('&amp;', '&');
}

const typed = {
  label: 'Big Broker',
  ref: 'odra-movers',
  origins: 'https://big.example\nhttps://b2.example',
  rate: '5/s',
  burst: '40',
};

describe('a refused key form', () => {
  it('generating: a taken ref or a bad rate gives the API tab with the message and every typed value', async () => {
    await panel.store.createKey({ facilityId: 'wro-1', prefix: 'svc', label: 'Odra Movers', ref: 'odra-movers' });
    const keys = await panel.store.listKeys();
    const s = await panel.client.session();
    for (const form of [typed, { ...typed, ref: 'big', rate: 'fast' }]) {
      const page = await s.as('POST', '/facilities/wro-1/keys', form);
      expect(page.status).toBe(400);
      expect(page.headers['content-type']).toMatch(/^text\/html/);
      const body = String(page.body);
      expect(body).toContain('role="alert"');
      for (const [field, value] of Object.entries(form))
        expect([field, valueOf(body, `new-${field}`)]).toEqual([field, value]);
    }
    expect(await panel.store.listKeys()).toEqual(keys);
  });

  it("editing: the key's form comes back open with the message and the typed values", async () => {
    await panel.store.createKey({ facilityId: 'wro-1', prefix: 'svc', label: 'Odra Movers', ref: 'odra-movers' });
    const { info } = await panel.store.createKey({ facilityId: 'wro-1', prefix: 'svc', label: 'Other', ref: 'other' });
    const keys = await panel.store.listKeys();
    const s = await panel.client.session();
    for (const form of [typed, { ...typed, ref: 'big', rate: 'fast' }]) {
      const page = await s.as('POST', `/keys/${info.id}`, form);
      expect(page.status).toBe(400);
      const body = String(page.body);
      expect(body).toContain('role="alert"');
      expect(body).toMatch(new RegExp(`<details open>[^]*?action="/keys/${info.id}"`));
      for (const [field, value] of Object.entries(form))
        expect([field, valueOf(body, `${info.id}-${field}`)]).toEqual([field, value]);
      // The generate form stays empty: it was not the one sent.
      expect(valueOf(body, 'new-label')).toBe('');
    }
    expect(await panel.store.listKeys()).toEqual(keys);
  });
});
