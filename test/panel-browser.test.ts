// The flows in Chromium and Firefox at 390 px, with the panel's components running under its CSP: log in with
// the keyboard, generate a key and use it on the API at once, revoke it and see the API refuse it on the next request,
// import a file with errors and see them, publish a snapshot; axe-core finds nothing on any page, in en, pl and de.
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { recordKey } from './helpers/capture.ts';
import { demoJson, tempDir } from './helpers/fixture.ts';
import { handlerOver, inject } from './helpers/inject.ts';
import { checkPage, logInWithKeyboard, PANEL_BROWSERS, usePanelInBrowser } from './helpers/panel-browser.ts';

/** Set to a folder to keep the screenshots the docs show (the API tab, the key shown once, the Embed tab), from Chromium. */
const SHOTS = process.env.PANEL_SCREENSHOT_DIR;

describe.each(PANEL_BROWSERS)('the panel in %s', (name) => {
  const run = usePanelInBrowser(name);

  it('logs in with the keyboard alone', async () => {
    await run.go('/login', 'the login page');
    await logInWithKeyboard(run.page, run.panel.url);
    expect(new URL(run.page.url()).pathname).toBe('/');
    await checkPage(run.page, 'the facilities list');
  }, 60_000);

  it('has no axe violations on any tab, the audit log or the import page, in English, Polish and German', async () => {
    for (const tab of ['', '/api', '/snapshots', '/embed'])
      await run.go(`/facilities/wro-1${tab}`, `tab ${tab || '/'}`);
    await run.go('/audit', 'the audit log');
    await run.go('/import', 'the import page');
    for (const lang of ['pl', 'de']) {
      await run.page.setExtraHTTPHeaders({ 'accept-language': lang });
      for (const path of ['/', '/facilities/wro-1', '/facilities/wro-1/api', '/import'])
        await run.go(path, `${path} in ${lang}`);
      expect(await run.page.$eval('html', (e) => e.lang)).toBe(lang);
    }
    await run.page.setExtraHTTPHeaders({});
  }, 120_000);

  it('generates a key that works on the API at once, and after a revoke the API refuses it', async () => {
    const shots = SHOTS && name === 'chromium' ? SHOTS : undefined;
    await run.page.goto(`${run.panel.url}/facilities/wro-1/api`);
    if (shots) await run.page.setViewport({ width: 1100, height: 900 });
    await run.page.type('#new-label', 'Broker site');
    await run.page.type('#new-origins', 'https://broker.example');
    await Promise.all([run.page.waitForNavigation(), run.page.click('.generate button[type=submit]')]);
    await checkPage(run.page, 'the new key');
    const key = await run.page.$eval('#new-key', (e) => (e as HTMLInputElement).value);
    expect(key).toMatch(/^svc_live_[A-Za-z0-9]{32}$/);
    recordKey(key);
    expect(await run.page.$$eval('panel-copy button', (b) => b.length)).toBe(2);
    if (shots)
      writeFileSync(join(shots, 'screenshot-panel-new-key.png'), await run.page.screenshot({ fullPage: true }));

    const api = handlerOver(run.file);
    const get = async () => (await inject(api, { url: '/external/listings', headers: { 'x-api-key': key } })).status;
    try {
      expect(await get()).toBe(200);
      await run.page.goto(`${run.panel.url}/facilities/wro-1/api`);
      expect(await run.page.content()).not.toContain(key);
      if (shots) writeFileSync(join(shots, 'screenshot-panel-api.png'), await run.page.screenshot({ fullPage: true }));
      await run.page.setViewport({ width: 390, height: 844 });
      await run.page.click('panel-revoke form[data-revoke] button');
      await run.page.click('panel-revoke dialog[open] button.danger');
      await run.page.waitForSelector('panel-revoke:not(:has(form[data-revoke]))');
      expect(await run.page.$eval('[data-key-state]', (e) => e.textContent)).toMatch(/^revoked /);
      expect(await get()).toBe(401);
    } finally {
      api.close();
    }
  }, 60_000);

  it('previews the widget live on the Embed tab, from the session alone, as the form and snippet change', async () => {
    const shots = SHOTS && name === 'chromium' ? SHOTS : undefined;
    await run.store.createKey({ facilityId: 'wro-1', prefix: 'svc', label: 'Odra Movers' });
    if (shots) await run.page.setViewport({ width: 1280, height: 1000 });
    await run.go('/facilities/wro-1/embed', 'the Embed tab');
    const cards = () =>
      run.page.$$eval('storage-listings', (w) => w[0]?.shadowRoot?.querySelectorAll('[part~="listing"]').length ?? 0);
    await run.page.waitForFunction(
      () =>
        (document.querySelector('storage-listings')?.shadowRoot?.querySelectorAll('[part~="listing"]').length ?? 0) > 0,
      { timeout: 15_000 },
    );
    const all = await cards();
    const snippet = () => run.page.$eval('textarea#embed', (e) => (e as HTMLTextAreaElement).value);
    expect(await snippet()).toMatch(/api-key="svc_live_…[A-Za-z0-9]{4}"/);

    await run.page.click('#embed-available_only');
    await run.page.select('#embed-sort', '-price');
    await run.page.waitForFunction(
      (n) => {
        const w = document.querySelector('storage-listings');
        return (
          w?.getAttribute('sort') === '-price' && (w.shadowRoot?.querySelectorAll('[part~="listing"]').length ?? n) < n
        );
      },
      {},
      all,
    );
    expect(await snippet()).toContain('available-only sort="-price"');
    await run.page.select('#embed-theme', 'dark');
    expect(await snippet()).toContain('--sl-bg: #151b23;');
    expect(
      await run.page.$eval('[data-preview-frame]', (e) => getComputedStyle(e).getPropertyValue('--sl-bg').trim()),
    ).toBe('#151b23');
    await run.page.select('#embed-source', 'snapshot');
    expect(await snippet()).toContain('keys-url="https://cdn.example/keys.json"');
    expect(new URL(run.page.url()).searchParams.get('sort')).toBe('-price');
    await checkPage(run.page, 'the configured Embed tab');
    if (shots) {
      await run.page.select(
        '#embed-source',
        await run.page.$eval('#embed-source option', (o) => (o as HTMLOptionElement).value),
      );
      await run.page.select('#embed-theme', 'light');
      await run.page.click('#embed-show_facility');
      await run.page.waitForFunction(() =>
        document.querySelector('storage-listings')?.shadowRoot?.querySelector('[part~="facility"]'),
      );
      writeFileSync(join(shots, 'screenshot-panel-embed.png'), await run.page.screenshot({ fullPage: true }));
      await run.page.setViewport({ width: 390, height: 844 });
    }
  }, 60_000);

  it('keeps the confirmation page of the revoke for a browser without the script', async () => {
    const { info } = await run.store.createKey({ facilityId: 'wro-1', prefix: 'svc', label: 'no script' });
    await run.go(`/keys/${info.id}/revoke`, 'the revoke confirmation');
    await Promise.all([run.page.waitForNavigation(), run.page.click('main button.danger')]);
    expect(new URL(run.page.url()).pathname).toBe('/facilities/wro-1/api');
    expect((await run.store.listKeys('wro-1')).find((k) => k.id === info.id)!.revoked_at).not.toBeNull();
  }, 60_000);

  it('lists the problems of an import file with their JSON paths', async () => {
    const { dir, cleanup } = tempDir();
    try {
      const data = demoJson();
      data.facilities[0].listings[0].free_units = 999;
      const file = join(dir, 'bad.json');
      writeFileSync(file, JSON.stringify(data));
      await run.page.goto(`${run.panel.url}/import`);
      const input = await run.page.$('#file');
      await (input as unknown as { uploadFile(p: string): Promise<void> }).uploadFile(file);
      await Promise.all([run.page.waitForNavigation(), run.page.click('main button[type=submit]')]);
      expect(await run.page.$eval('.problems', (e) => e.textContent)).toContain('facilities[0].listings[0].free_units');
      await checkPage(run.page, 'the import problems');
    } finally {
      cleanup();
    }
  }, 60_000);

  it('publishes a snapshot now', async () => {
    await run.page.goto(`${run.panel.url}/facilities/wro-1/snapshots`);
    await Promise.all([run.page.waitForNavigation(), run.page.click('main form button[type=submit]')]);
    expect(await run.page.$eval('main [role=status]', (e) => e.textContent)).toContain('Published version 1');
    expect(existsSync(join(run.published, 'wro-1', 'listings.json'))).toBe(true);
    await checkPage(run.page, 'the published snapshot');
  }, 60_000);

  it("has no axe violations on a key's webhooks page, with an endpoint, a delivery and its secret shown once", async () => {
    const { info } = await run.store.createKey({ facilityId: 'wro-1', prefix: 'svc', label: 'hooks' });
    const hook = { keyId: info.id, url: 'https://partner.example/hooks', events: ['listing.updated'] };
    const { endpoint } = await run.store.webhooks.add(hook, 'test');
    await run.store.webhooks.sendTest(endpoint.id, 'test');
    await run.go(`/keys/${info.id}/webhooks`, 'the webhooks page');
    await run.page.click(`form[action="/webhooks/${endpoint.id}/rotate"] button`);
    await run.page.waitForSelector('#webhook-secret');
    await checkPage(run.page, 'the secret shown once');
  }, 60_000);

  it("shows a key's referrals as a chart whose words keep the page's size on a phone, with no axe violations", async () => {
    const { info } = await run.store.createKey({ facilityId: 'wro-1', prefix: 'svc', label: 'Chart', ref: 'chart' });
    const day = new Date().toISOString().slice(0, 10);
    const row = { facility_id: 'wro-1', listing_code: 'M-07', ref: 'chart', day, clicks: 4, unique_visitors: 3 };
    await run.store.recordClicks([row]);
    await run.go(`/keys/${info.id}/referrals`, "a key's referrals");
    // An SVG's own text would shrink with the chart (to about 6 px at this width): the words are HTML beside it.
    const sizes = await run.page.$$eval('.referral-figure :is(.referral-axis span, p)', (els) =>
      els.map((e) => parseFloat(getComputedStyle(e).fontSize)),
    );
    expect(sizes.length).toBe(4);
    expect(Math.min(...sizes)).toBeGreaterThanOrEqual(12);
    expect(await run.page.$eval('table.referrals tbody', (e) => e.textContent)).toBe(`${day}43`);
  }, 60_000);
});
