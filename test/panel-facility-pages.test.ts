// The panel's pages in process: the facilities list and a facility's listings with the API's prices, in the
// browser's first of English, Polish and German.
import { describe, expect, it } from 'vitest';
import { usePanel } from './helpers/panel.ts';
import { handlerOver, inject } from './helpers/inject.ts';

const panel = usePanel();
const { request, session } = panel.client;

describe('pages', () => {
  it('lists facilities and shows the listings with the API prices, dynamic ones marked', async () => {
    const s = await session();
    const list = String((await s.as('GET', '/')).body);
    expect(list).toContain('/facilities/wro-1');
    const api = handlerOver(panel.file);
    try {
      const key = (await panel.store.createKey({ facilityId: 'wro-1', prefix: 'svc' })).key;
      const body = JSON.parse(
        String((await inject(api, { url: '/external/listings', headers: { 'x-api-key': key } })).body),
      );
      const tab = String((await s.as('GET', '/facilities/wro-1')).body);
      for (const l of body.listings) expect(tab).toContain(`<th scope="row">${l.code}</th>`);
      expect(tab).toContain('dynamic');
    } finally {
      api.close();
    }
    expect(String((await s.as('GET', '/facilities/wro-1/embed')).body)).toContain('storage-listings.js');
    expect((await s.as('GET', '/facilities/nope')).status).toBe(404);
    expect((await s.as('GET', '/facilities/nope/api')).status).toBe(404); // its keys, as `keys list --facility nope`
    const css = await request('GET', '/assets/panel.css', { headers: { 'accept-encoding': 'br, gzip' } });
    expect(css.headers['content-encoding']).toBe('br');
  });
});

describe('languages', () => {
  it("answers in the browser's first of English, Polish and German, with prices formatted by shared/format", async () => {
    const { langOf } = await import('../server/panel/i18n/i18n.ts');
    expect(langOf('pl-PL,pl;q=0.9,en;q=0.8')).toBe('pl');
    expect(langOf('fr-CH, fr;q=0.9, de;q=0.7, en;q=0.5')).toBe('de');
    expect(langOf('fr')).toBe('en');
    expect(langOf(undefined)).toBe('en');
    const login = String((await request('GET', '/login', { headers: { 'accept-language': 'pl' } })).body);
    expect(login).toContain('<html lang="pl">');
    expect(login).toContain('Zaloguj');
    const s = await session();
    const de = String((await s.as('GET', '/facilities/wro-1', {}, { 'accept-language': 'de-DE' })).body);
    expect(de).toContain('<html lang="de">');
    expect(de).toContain('Freie Einheiten');
    expect(de).toMatch(/\d,\d{2}\sPLN/);
  });
});
