// The account pages in Chromium and Firefox at 390 px, under the panel's CSP: two-factor enrolment (the QR code shown as
// a data: image), the recovery codes, the login's code step, the Account and Operators pages and the audit log's
// filters; axe-core finds nothing on any of them, in English, Polish and German.
import type { Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { totpCodeAt } from '../server/domain/totp.ts';
import { OPERATOR } from './helpers/panel.ts';
import {
  checkPage,
  logInWithKeyboard,
  PANEL_BROWSERS,
  panelInBrowser,
  type PanelInBrowser,
} from './helpers/panel-browser.ts';

describe.each(PANEL_BROWSERS)('the account pages in %s', (name) => {
  let run: PanelInBrowser;
  let page: Page;
  const go = async (path: string, what: string) => {
    await page.goto(`${run.panel.url}${path}`);
    await checkPage(page, what);
  };
  beforeAll(async () => {
    run = await panelInBrowser(name);
    page = run.page;
  }, 60_000);
  afterAll(() => run?.close());

  it('enrols in two-factor login, then logs in with a recovery code, every page without axe violations', async () => {
    await logInWithKeyboard(page, run.panel.url);
    await go('/account', 'the account page');
    await go('/account/2fa', 'the enrolment page');
    // The QR code is drawn: the CSP lets the data: image through.
    expect(
      await page.$eval('img[src^="data:image/svg+xml"]', (i) => (i as HTMLImageElement).naturalWidth),
    ).toBeGreaterThan(0);
    const secret = (await run.store.operator('email', OPERATOR))!.totp_secret!;
    await page.type('#code', totpCodeAt(secret, Date.now()));
    await Promise.all([page.waitForNavigation(), page.keyboard.press('Enter')]);
    await checkPage(page, 'the recovery codes');
    const codes = await page.$$eval('.recovery-codes code', (c) => c.map((e) => e.textContent ?? ''));
    expect(codes).toHaveLength(10);

    await go('/operators', 'the operators page');
    await go('/audit?action=2fa.enrol', 'the audit log, filtered');
    for (const lang of ['pl', 'de']) {
      await page.setExtraHTTPHeaders({ 'accept-language': lang });
      for (const path of ['/account', '/operators', '/audit?operator=ops%40example.com'])
        await go(path, `${path} in ${lang}`);
    }
    await page.setExtraHTTPHeaders({});

    await Promise.all([page.waitForNavigation(), page.click('.who button[type=submit]')]);
    await logInWithKeyboard(page, run.panel.url);
    expect(new URL(page.url()).pathname).toBe('/login/code');
    await checkPage(page, 'the code step');
    await page.type('#code', codes[0]!);
    await Promise.all([page.waitForNavigation(), page.keyboard.press('Enter')]);
    expect(new URL(page.url()).pathname).toBe('/');
  }, 180_000);
});
