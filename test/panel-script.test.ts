// What the panel's server does for its script (dist/panel/panel.js, the Lit components): serves the built bundle
// precompressed under the same CSP, answers the in-page revoke in JSON, and keeps the no-JavaScript paths (a sorted
// and filtered Listings tab, per-field rules on the key forms) on the very code the components run.
import { readFileSync } from 'node:fs';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { panelAssets, PANEL_BUNDLE } from '../server/panel/assets.ts';
import type { Store } from '../server/store/store.ts';
import { recordKey } from './helpers/capture.ts';
import { handlerOver, inject } from './helpers/inject.ts';
import { panelClient, panelOver, panelStore, type PanelHandle } from './helpers/panel.ts';

let cleanup: () => Promise<void>;
let file: string;
let store: Store;
let handle: PanelHandle;
const { request, session } = panelClient(() => handle);

beforeEach(async () => {
  ({ file, store, cleanup } = await panelStore());
  handle = panelOver(store);
});
afterEach(() => cleanup());

describe("the panel's script", () => {
  it('is the built bundle, served as br or gzip made once, and pages load it under the same CSP', async () => {
    const built = readFileSync(PANEL_BUNDLE);
    const br = await request('GET', '/assets/panel.js', { headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(br.headers).toMatchObject({ 'content-type': 'text/javascript; charset=utf-8', 'content-encoding': 'br' });
    expect(brotliDecompressSync(br.body as Buffer)).toEqual(built);
    const gzip = await request('GET', '/assets/panel.js', { headers: { 'accept-encoding': 'gzip' } });
    expect(gunzipSync(gzip.body as Buffer)).toEqual(built);
    expect((await request('GET', '/assets/panel.js')).body).toEqual(built);
    expect(String(built)).toContain('panel-revoke');

    const s = await session();
    for (const path of ['/facilities/wro-1', '/facilities/wro-1/api', '/facilities/wro-1/embed']) {
      const page = await s.as('GET', path);
      expect(page.headers['content-security-policy']).toMatch(/script-src 'self';/);
      const body = String(page.body);
      expect(body).toContain('<script type="module" src="/assets/panel.js"></script>');
      // Data blocks only: the CSP runs no inline script, and the pages need none.
      for (const [, attrs] of body.matchAll(/<script(?![^>]*\bsrc=)([^>]*)>/g))
        expect(attrs).toBe(' type="application/json"');
    }
  });

  it('refuses to start without the bundle, saying how to build it', () => {
    expect(() => panelAssets('/nowhere/panel.js')).toThrow(/\/nowhere\/panel\.js is missing: run npm run build/);
  });
});

describe('revoking from the page', () => {
  it("answers JSON with the row's new state to a script, and the API refuses the key at once", async () => {
    const s = await session();
    const site = (await store.createKey({ facilityId: 'wro-1', prefix: 'svc', label: 'site' })).info;
    const { key: secret, info } = await store.createKey({ facilityId: 'wro-1', prefix: 'svc' });
    const id = info.id;
    recordKey(secret);
    const api = handlerOver(file);
    const get = () => inject(api, { url: '/external/listings', headers: { 'x-api-key': secret } });
    try {
      expect((await get()).status).toBe(200);
      const json = await s.as('POST', `/keys/${id}/revoke`, {}, { accept: 'application/json' });
      expect(json.status).toBe(200);
      expect(json.headers['content-type']).toBe('application/json; charset=utf-8');
      const answer = JSON.parse(String(json.body));
      expect(answer).toEqual({ id, revoked_at: expect.any(String), state: expect.stringMatching(/^revoked \d{4}-/) });
      expect((await get()).status).toBe(401);
    } finally {
      api.close();
    }
    // The form without a script still goes back to the tab; the page marks each active row for <panel-revoke>.
    expect((await s.as('POST', `/keys/${site.id}/revoke`)).status).toBe(303);
    expect((await store.listKeys('wro-1')).every((k) => k.revoked_at !== null)).toBe(true);
    await store.createKey({ facilityId: 'wro-1', prefix: 'svc' });
    const tab = String((await s.as('GET', '/facilities/wro-1/api')).body);
    expect(tab.match(/<panel-revoke /g)).toHaveLength(1);
    expect(tab).toContain(`csrf="${s.csrf}"`);
    expect(tab).toMatch(/<form method="get" action="\/keys\/key_\w+\/revoke" data-revoke>/);
  });
});

describe('the key forms without a script', () => {
  it('refuse by the rules <panel-key-form> checks, naming each field, and change nothing', async () => {
    const s = await session();
    const bad = await s.as('POST', '/facilities/wro-1/keys', {
      label: 'x'.repeat(201),
      origins: 'https://ok.example\nhttps://bad.example/path',
      rate: '0/s',
    });
    expect(bad.status).toBe(400);
    for (const field of ['label: ', 'origins: ', 'rate: ']) expect(String(bad.body)).toContain(field);
    expect(await store.listKeys('wro-1')).toEqual([]);
    const tab = String((await s.as('GET', '/facilities/wro-1/api')).body);
    for (const id of ['new-label-error', 'new-origins-error', 'new-rate-error']) expect(tab).toContain(`id="${id}"`);
    // A label in characters as a person counts them: the input lets 200 emoji be typed, and the server takes them.
    expect(tab).toMatch(new RegExp(`id="new-label" name="label" maxlength="${2 * 200}"`));
    const emoji = await s.as('POST', '/facilities/wro-1/keys', { label: '📦'.repeat(200) });
    expect(emoji.status).toBe(303);
    expect((await store.listKeys('wro-1')).map((k) => k.label)).toEqual(['📦'.repeat(200)]);
    await store.revokeKey((await store.listKeys('wro-1'))[0]!.id);
    const wildcard = await s.as('POST', '/facilities/wro-1/keys', { label: 'Shop', origins: 'https://*.shop.example' });
    expect(wildcard.status).toBe(400);
    expect(String(wildcard.body)).toContain('origins: ');
    expect(await store.listKeys('wro-1')).toHaveLength(1);
  });
});

describe('the Listings tab without a script', () => {
  it('filters by area and sorts by the column links, as <panel-listings> does in the browser', async () => {
    const s = await session();
    // A row's code, before the badge of an inactive listing.
    const codes = (body: string) => [...body.matchAll(/<th scope="row">([^<\s]+)/g)].map((m) => m[1]);
    const all = String((await s.as('GET', '/facilities/wro-1')).body);
    const data = JSON.parse(/<script type="application\/json">([^<]*)<\/script>/.exec(all)![1]!);
    expect(codes(all)).toEqual(data.listings.map((l: { code: string }) => l.code));
    expect(data.pricing_rules.length).toBeGreaterThan(0);

    const areas = data.listings.map((l: { area_m2: number }) => l.area_m2).sort((a: number, b: number) => a - b);
    const [min, max] = [areas[1], areas[areas.length - 2]];
    const page = String((await s.as('GET', `/facilities/wro-1?sort=-price&min_area=${min}&max_area=${max}`)).body);
    const kept = data.listings
      .filter((l: { area_m2: number }) => l.area_m2 >= min && l.area_m2 <= max)
      .sort((a: { price: { gross: number } }, b: { price: { gross: number } }) => b.price.gross - a.price.gross);
    expect(codes(page)).toEqual(kept.map((l: { code: string }) => l.code));
    expect(page).toContain(`${kept.length} of ${data.listings.length} listings`);
    expect(page).toMatch(
      /<th scope="col" aria-sort="descending"><a href="\?sort=price&amp;min_area=[\d.]+&amp;max_area=[\d.]+" data-sort="price">/,
    );
    expect(page).toContain(`<input id="min-area" name="min_area" inputmode="decimal" value="${min}">`);
    expect(String((await s.as('GET', '/facilities/wro-1?min_area=99999')).body)).toContain('No listing matches');
  });
});
