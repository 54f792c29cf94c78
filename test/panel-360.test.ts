// Every page of the panel at 360 px, the narrowest phone it is made for, in Chromium and Firefox: nothing makes the
// document wider than the window (a wide table or command scrolls within itself), and axe-core finds nothing. A panel
// without a publish target shows the commands that set one on its Snapshots tab: checked too.
import { describe, it } from 'vitest';
import { PANEL_BROWSERS, usePanelInBrowser, type BrowserPanel } from './helpers/panel-browser.ts';

/** Every page an owner reads, a key's pages included, in each of the panel's languages. */
async function everyPage(run: BrowserPanel, label: string) {
  const { info } = await run.store.createKey({ facilityId: 'wro-1', prefix: 'svc', label: `${label} key` });
  const hook = { keyId: info.id, url: 'https://partner.example/hooks', events: ['listing.updated'] };
  await run.store.webhooks.add(hook, 'test');
  const paths = [
    '/',
    '/facilities/wro-1',
    '/facilities/wro-1/api',
    '/facilities/wro-1/snapshots',
    '/facilities/wro-1/embed',
    `/keys/${info.id}/revoke`,
    `/keys/${info.id}/new`,
    `/keys/${info.id}/webhooks`,
    `/keys/${info.id}/referrals`,
    '/audit',
    '/audit?action=nothing-such&from=yesterday',
    '/import',
    '/account',
    '/account/2fa',
    '/operators',
  ];
  await run.page.setViewport({ width: 360, height: 740 });
  for (const lang of ['en', 'pl', 'de']) {
    await run.page.setExtraHTTPHeaders({ 'accept-language': lang });
    for (const path of paths) await run.go(path, `${path} at 360 px in ${lang} (${label})`);
  }
  await run.page.setExtraHTTPHeaders({});
}

describe.each(PANEL_BROWSERS)('the panel at 360 px in %s', (name) => {
  describe('with a publish target', () => {
    const run = usePanelInBrowser(name, { logIn: true });
    it('fits every page in the window', () => everyPage(run, 'with a target'), 180_000);
  });

  describe('without a publish target', () => {
    const run = usePanelInBrowser(name, { logIn: true, publishTarget: false });
    it('fits every page in the window, the Snapshots tab and its commands included', async () => {
      await run.page.setViewport({ width: 360, height: 740 });
      await run.page.goto(`${run.panel.url}/facilities/wro-1/snapshots`);
      await run.page.waitForSelector('.note pre');
      await everyPage(run, 'without a target');
    }, 180_000);
  });
});
