// The Embed tab in process: the plain GET form renders the snippet for a key (by its hint) or a signed snapshot with
// every option and theme, refuses bad values by field and rule, and the preview's data answers as the API's bodies do,
// through the session alone, with no key anywhere in the page.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readEmbedOptions } from '../shared/embed-options.ts';
import type { Store } from '../server/store/store.ts';
import { handlerOver, inject } from './helpers/inject.ts';
import { panelClient, panelOver, panelStore, type PanelHandle } from './helpers/panel.ts';

describe('the Embed tab', () => {
  let store: Store;
  let file: string;
  let cleanup: () => Promise<void>;
  let as: Awaited<ReturnType<ReturnType<typeof panelClient>['session']>>['as'];
  let request: ReturnType<typeof panelClient>['request'];
  let key: string;
  let keyId: string;
  let hint: string;
  beforeAll(async () => {
    ({ store, file, cleanup } = await panelStore());
    const handle: PanelHandle = panelOver(store);
    const client = panelClient(() => handle);
    request = client.request;
    ({ as } = await client.session());
    const made = await store.createKey({ facilityId: 'wro-1', prefix: 'svc', label: 'Broker' });
    key = made.key;
    keyId = made.info.id;
    hint = made.info.hint;
  });
  afterAll(() => cleanup());

  const page = async (query: string) => {
    const res = await as('GET', `/facilities/wro-1/embed${query}`);
    return { status: res.status, body: String(res.body), headers: res.headers };
  };
  const snippetOf = (body: string) =>
    /<textarea id="embed"[^>]*>([\s\S]*?)<\/textarea>/
      .exec(body)![1]!
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&quot;/g, '"')
      .replace(/&#39;/g, "'")
      .replace(/&amp;/g, '&');

  it('names the first active key by its hint, never the key, and pins the facility', async () => {
    const { status, body } = await page('');
    expect(status).toBe(200);
    expect(body).not.toContain(key);
    const snippet = snippetOf(body);
    expect(snippet).toContain(`api-key="svc_live_…${hint}"`);
    expect(snippet).toContain('api-base="http://127.0.0.1:8787"');
    expect(snippet).toContain('facility="wro-1"');
    expect(snippet).toContain('<script type="module" src="http://127.0.0.1:8787/widget/storage-listings.js">');
    // No theme rule for the default look; a rule reserving the room of the facility's six cards before the script runs.
    expect(snippet).not.toContain('--sl-accent');
    expect(snippet).toContain('cards="6"');
    expect(snippet).toMatch(/storage-listings:not\(:defined\)::before \{ content: ""; display: block; height: calc\(/);
  });

  it('renders every option and a theme into the snippet and the preview, from a plain GET form', async () => {
    const query =
      `?source=${keyId}&available_only=1&sort=-price&locale=pl&show_net=1&show_facility=1&refresh=60` +
      '&theme=dark&accent=%23ff0000';
    const { status, body } = await page(query);
    expect(status).toBe(200);
    const snippet = snippetOf(body);
    expect(snippet).toContain('available-only sort="-price" locale="pl" show-net show-facility refresh="60"');
    expect(snippet).toContain('--sl-accent: #ff0000; --sl-accent-text: #0d1117; --sl-text: #e6edf3; --sl-bg: #151b23;');
    const preview = /<storage-listings api-key="preview"[^>]*>/.exec(body)![0];
    expect(preview).toContain('api-base="/facilities/wro-1/preview"');
    expect(preview).toContain('sort="-price"');
    expect(preview).toContain('show-facility');
    expect(body).toContain('<option value="-price" selected>');
    expect(body).toContain('<script type="module" src="/assets/storage-listings.js">');
  });

  it('gives a signed snapshot with its JWKS under the base the operator names', async () => {
    const snippet = snippetOf(
      (await page('?source=snapshot&snapshot_base=https%3A%2F%2Fcdn.example.org%2Fpub%2F')).body,
    );
    expect(snippet).toContain(
      'src="https://cdn.example.org/pub/wro-1/listings.json" keys-url="https://cdn.example.org/pub/keys.json" facility="wro-1"',
    );
    expect(snippet).not.toContain('api-key');
    expect(snippet).not.toContain('partner-ref');
  });

  it("credits a snapshot embed's rent links to the partner chosen by its key's ref, through the click URL", async () => {
    const { status, body } = await page(
      '?source=snapshot&snapshot_base=https%3A%2F%2Fcdn.example.org&partner_ref=broker',
    );
    expect(status).toBe(200);
    expect(body).toMatch(
      /<select id="embed-partner-ref" name="partner_ref"[^>]*>[\s\S]*<option value="broker" selected>Broker \(broker\)<\/option>/,
    );
    const snippet = snippetOf(body);
    expect(snippet).toMatch(/ facility="wro-1" partner-ref="broker" go-base="https?:\/\/[^"]+"/);
    expect(snippet).not.toContain('api-key');
    const bad = await page('?source=snapshot&partner_ref=Not%20A%20Ref');
    expect(bad.status).toBe(400);
    expect(bad.body).toContain('partner_ref: 1-40 of a-z');
  });

  it('refuses bad values naming the field and the rule, and keeps the form', async () => {
    const { status, body } = await page('?sort=cheapest&refresh=-4&accent=red&source=key_nope&theme=neon');
    expect(status).toBe(400);
    for (const field of [
      'sort: one of',
      'refresh: whole seconds',
      'accent: a colour',
      'source: a key',
      'theme: one of',
    ])
      expect(body).toContain(field);
    expect(body).toContain('<form method="get"');
    expect(body).not.toMatch(/at .*\.ts:\d+/);
  });

  it('reads the same options on the server and in the browser (one function)', () => {
    const { options, problems } = readEmbedOptions(new URLSearchParams('theme=warm&text=%23ABCDEF&refresh=3601'));
    expect(problems).toEqual(['refresh: whole seconds from 0 to 3600']);
    expect(options.colours).toEqual({ accent: '#7a3e00', accent_text: '#ffffff', text: '#abcdef', bg: '#fff8ef' });
  });

  it("answers the preview's list and a Detail exactly as the API does, for the session only", async () => {
    const api = handlerOver(file);
    try {
      for (const q of ['', '?available=true&sort=price']) {
        const viaApi = JSON.parse(
          String((await inject(api, { url: `/external/listings${q}`, headers: { 'x-api-key': key } })).body),
        ) as { listings: { id: string }[] };
        const res = await as('GET', `/facilities/wro-1/preview/external/listings${q}`);
        expect(res.status).toBe(200);
        expect(res.headers['cache-control']).toBe('no-store');
        expect(JSON.parse(String(res.body))).toEqual(viaApi);
      }
      const list = JSON.parse(String((await as('GET', '/facilities/wro-1/preview/external/listings')).body)) as {
        listings: { id: string }[];
      };
      const id = list.listings[0]!.id;
      const detail = await as('GET', `/facilities/wro-1/preview/external/listings/${id}`);
      const apiDetail = await inject(api, { url: `/external/listings/${id}`, headers: { 'x-api-key': key } });
      expect(JSON.parse(String(detail.body))).toEqual(JSON.parse(String(apiDetail.body)));
      const missing = await as('GET', '/facilities/wro-1/preview/external/listings/lst_nope');
      expect([missing.status, JSON.parse(String(missing.body)).code]).toEqual([404, 'not_found']);
    } finally {
      api.close();
    }
    const anonymous = await request('GET', '/facilities/wro-1/preview/external/listings');
    expect([anonymous.status, anonymous.headers.location]).toEqual([303, '/login']);
  });

  it("serves the widget's module from the panel's origin, and lets the preview show the API's photos", async () => {
    const res = await request('GET', '/assets/storage-listings.js');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toContain('javascript');
    const { headers } = await page('');
    expect(headers['content-security-policy']).toContain("img-src 'self' http://127.0.0.1:8787 https:");
    expect(headers['content-security-policy']).toContain("script-src 'self';");
  });
});
