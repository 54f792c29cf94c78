// The panel's Lit components in Chromium and Firefox, under the panel's CSP: <panel-revoke>'s dialog (focus, Escape,
// a refusal shown, the row marked in place), <panel-copy>, <panel-listings>' sorting and area filter (the order the
// API's comparators give), and <panel-key-form>'s per-field problems by the server's rules; axe-core on each state.
import { describe, expect, it } from 'vitest';
import { sortListings } from '../shared/sort.ts';
import type { PanelListings } from '../shared/panel-listings.ts';
import { handlerOver, inject } from './helpers/inject.ts';
import { recordKey } from './helpers/capture.ts';
import { checkPage, PANEL_BROWSERS, usePanelInBrowser } from './helpers/panel-browser.ts';

describe.each(PANEL_BROWSERS)("the panel's components in %s", (name) => {
  const run = usePanelInBrowser(name, { logIn: true });
  const focused = () => run.page.evaluate(() => document.activeElement?.id || document.activeElement?.outerHTML);

  it('<panel-revoke> asks in a dialog: Escape keeps the key, a refusal is shown, a confirm revokes in place', async () => {
    const { key, info } = await run.store.createKey({ facilityId: 'wro-1', prefix: 'svc', label: 'dialog' });
    recordKey(key);
    await run.page.goto(`${run.panel.url}/facilities/wro-1/api`);
    const row = `panel-revoke[action="/keys/${info.id}/revoke"]`;
    await run.page.click(`${row} form[data-revoke] button`);
    expect(await run.page.$eval(`${row} dialog`, (d) => (d as HTMLDialogElement).open)).toBe(true);
    expect(await run.page.$eval(`${row} dialog`, (d) => d.contains(document.activeElement))).toBe(true);
    expect(await run.page.evaluate(() => document.activeElement?.hasAttribute('data-cancel'))).toBe(true);
    expect(new URL(run.page.url()).pathname).toBe('/facilities/wro-1/api');
    await checkPage(run.page, 'the revoke dialog');
    await run.page.keyboard.press('Escape');
    expect(await run.page.$eval(`${row} dialog`, (d) => (d as HTMLDialogElement).open)).toBe(false);
    expect(await run.page.evaluate(() => document.activeElement?.closest('form')?.hasAttribute('data-revoke'))).toBe(
      true,
    );

    // A stale form token: refused by the server, said in the dialog, nothing revoked.
    await run.page.$eval(row, (e) => e.setAttribute('csrf', 'stale'));
    await run.page.click(`${row} form[data-revoke] button`);
    await run.page.click(`${row} dialog button.danger`);
    await run.page.waitForSelector(`${row} dialog [role=alert]`);
    expect((await run.store.listKeys('wro-1')).find((k) => k.id === info.id)!.revoked_at).toBeNull();
    await run.page.keyboard.press('Escape');

    await run.page.reload();
    const api = handlerOver(run.file);
    try {
      expect((await inject(api, { url: '/external/listings', headers: { 'x-api-key': key } })).status).toBe(200);
      await run.page.click(`${row} form[data-revoke] button`);
      await run.page.click(`${row} dialog button.danger`);
      await run.page.waitForSelector(`${row}:not(:has(form[data-revoke]))`);
      // The key's table row: its state cell says revoked, its edit form is gone, focus is on the key's name.
      const tr = `tr:has(${row})`;
      expect(await run.page.$eval(`${tr} [data-key-state]`, (e) => e.textContent)).toMatch(/^revoked \d{4}-/);
      expect(await run.page.$eval(`${tr} details`, () => true).catch(() => false)).toBe(false);
      expect(await run.page.evaluate(() => document.activeElement?.hasAttribute('data-key-name'))).toBe(true);
      expect(await run.page.$eval(`${row} [role=status]`, (e) => e.textContent)).toBe('The key is revoked.');
      expect((await inject(api, { url: '/external/listings', headers: { 'x-api-key': key } })).status).toBe(401);
    } finally {
      api.close();
    }
    await checkPage(run.page, 'the revoked row');
  }, 60_000);

  it('<panel-copy> copies the field it names and says so', async () => {
    await run.page.goto(`${run.panel.url}/facilities/wro-1/embed`);
    await run.page.evaluate(() => {
      // The system clipboard is the desktop's: the test reads what the component hands to the Clipboard API.
      const copied: string[] = ((window as unknown as { copied: string[] }).copied = []);
      navigator.clipboard.writeText = async (text: string) => void copied.push(text);
    });
    // The live preview above the snippet renders its cards as the page settles, moving the button: once they are
    // there, the button is clicked where it is.
    await run.page.waitForFunction(
      () => document.querySelector('storage-listings')?.shadowRoot?.querySelector('[part~="listing"]') != null,
      { timeout: 30_000 },
    );
    await run.page.$eval('panel-copy button', (button) => (button as HTMLButtonElement).click());
    await run.page.waitForFunction(() => document.querySelector('panel-copy [role=status]')?.textContent === 'Copied');
    const copied = await run.page.evaluate(() => (window as unknown as { copied: string[] }).copied);
    expect(copied).toEqual([await run.page.$eval('#embed', (e) => (e as HTMLTextAreaElement).value)]);
    expect(await run.page.$eval('panel-copy button', (b) => b.textContent)).toBe('Copied');
    await checkPage(run.page, 'the embed tab after a copy');
  }, 60_000);

  it('<panel-listings> sorts by column and filters by area in the page, as the API orders them', async () => {
    await run.page.goto(`${run.panel.url}/facilities/wro-1`);
    const data = JSON.parse(await run.page.$eval('panel-listings script', (s) => s.textContent!)) as PanelListings;
    // A row's code, without the badge of an inactive listing.
    const codes = () =>
      run.page.$$eval('panel-listings tbody th[scope=row]', (ths) =>
        ths.map((th) => th.textContent!.trim().split(/\s/)[0]),
      );
    await run.page.evaluate(() => ((window as unknown as { samePage: boolean }).samePage = true));

    await run.page.click('a[data-sort=price]');
    expect(await codes()).toEqual(sortListings(data.listings, 'price').map((l) => l.code));
    expect(await run.page.$eval('a[data-sort=price]', (a) => a.closest('th')!.getAttribute('aria-sort'))).toBe(
      'ascending',
    );
    await run.page.click('a[data-sort=price]');
    expect(await codes()).toEqual(sortListings(data.listings, '-price').map((l) => l.code));
    expect(new URL(run.page.url()).search).toBe('?sort=-price');
    await run.page.click('a[data-sort=code]');
    expect(await codes()).toEqual(sortListings(data.listings, 'code').map((l) => l.code));
    expect(await run.page.$eval('a[data-sort=price]', (a) => a.closest('th')!.hasAttribute('aria-sort'))).toBe(false);

    const areas = [...new Set(data.listings.map((l) => l.area_m2))].sort((a, b) => a - b);
    const min = areas[1]!;
    await run.page.type('#min-area', String(min));
    const kept = sortListings(data.listings, 'code').filter((l) => l.area_m2 >= min);
    expect(await codes()).toEqual(kept.map((l) => l.code));
    expect(await run.page.$eval('panel-listings .count', (e) => e.textContent)).toBe(
      `${kept.length} of ${data.listings.length} listings`,
    );
    await run.page.keyboard.press('Enter');
    expect(await run.page.evaluate(() => (window as unknown as { samePage?: boolean }).samePage)).toBe(true);
    await checkPage(run.page, 'the sorted and filtered listings');

    // The URL it kept is the server's own view of the same filter.
    await run.page.reload();
    expect(await codes()).toEqual(kept.map((l) => l.code));
    await run.page.type('#max-area', '0');
    expect(await run.page.$eval('panel-listings tbody', (e) => e.textContent!.trim())).toBe(
      'No listing matches the filter.',
    );
  }, 60_000);

  it('<panel-key-form> shows each field its problem by the server rules, and sends only a valid form', async () => {
    await run.page.goto(`${run.panel.url}/facilities/wro-1/api`);
    const before = (await run.store.listKeys('wro-1')).length;
    const problem = (id: string) =>
      run.page.$eval(`#${id}`, (e) => ({
        invalid: e.getAttribute('aria-invalid'),
        described: e.getAttribute('aria-describedby'),
        text: document.getElementById(`${e.id}-error`)!.textContent!.trim(),
      }));
    await run.page.type('#new-origins', 'https://partner.example/shop');
    await run.page.type('#new-rate', 'fast');
    await run.page.keyboard.press('Tab');
    expect(await problem('new-origins')).toEqual({
      invalid: 'true',
      described: 'new-origins-error',
      text: expect.stringContaining('is not an origin'),
    });
    expect(await problem('new-rate')).toMatchObject({ invalid: 'true', text: expect.stringContaining('20/s') });
    await checkPage(run.page, 'the key form with problems');

    await run.page.click('.generate button[type=submit]');
    expect(new URL(run.page.url()).pathname).toBe('/facilities/wro-1/api');
    expect(await focused()).toBe('new-origins');
    expect((await run.store.listKeys('wro-1')).length).toBe(before);

    // Fixed while typing: the message goes at once.
    await run.page.$eval('#new-origins', (e) => ((e as HTMLTextAreaElement).value = ''));
    await run.page.type('#new-origins', 'https://partner.example');
    expect(await problem('new-origins')).toEqual({ invalid: null, described: null, text: '' });
    await run.page.$eval('#new-rate', (e) => ((e as HTMLInputElement).value = ''));
    await run.page.type('#new-rate', '600/min');
    await Promise.all([run.page.waitForNavigation(), run.page.click('.generate button[type=submit]')]);
    recordKey(await run.page.$eval('#new-key', (e) => (e as HTMLInputElement).value));
    expect((await run.store.listKeys('wro-1')).find((k) => k.rate_per_s === 10)).toBeDefined();
  }, 60_000);
});
