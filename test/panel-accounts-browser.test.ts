// The account pages in Chromium and Firefox at 390 px, under the panel's CSP: two-factor enrolment (the QR code shown as
// a data: image), the recovery codes, the login's code step, the Account and Operators pages and the audit log's
// filters; axe-core finds nothing on any of them, in English, Polish and German.
import { describe, expect, it } from 'vitest';
import { totpCodeAt } from '../server/domain/totp.ts';
import { OPERATOR } from './helpers/panel.ts';
import { checkPage, logInWithKeyboard, PANEL_BROWSERS, usePanelInBrowser } from './helpers/panel-browser.ts';

describe.each(PANEL_BROWSERS)('the account pages in %s', (name) => {
  const run = usePanelInBrowser(name);

  it('enrols in two-factor login, then logs in with a recovery code, every page without axe violations', async () => {
    await logInWithKeyboard(run.page, run.panel.url);
    await run.go('/account', 'the account page');
    await run.go('/account/2fa', 'the enrolment page');
    // The QR code is drawn: the CSP lets the data: image through.
    expect(
      await run.page.$eval('img[src^="data:image/svg+xml"]', (i) => (i as HTMLImageElement).naturalWidth),
    ).toBeGreaterThan(0);
    const secret = (await run.store.operator('email', OPERATOR))!.totp_secret!;
    await run.page.type('#code', totpCodeAt(secret, Date.now()));
    await Promise.all([run.page.waitForNavigation(), run.page.keyboard.press('Enter')]);
    await checkPage(run.page, 'the recovery codes');
    const codes = await run.page.$$eval('.recovery-codes code', (c) => c.map((e) => e.textContent ?? ''));
    expect(codes).toHaveLength(10);

    await run.go('/operators', 'the operators page');
    await run.go('/audit?action=2fa.enrol', 'the audit log, filtered');
    for (const lang of ['pl', 'de']) {
      await run.page.setExtraHTTPHeaders({ 'accept-language': lang });
      for (const path of ['/account', '/operators', '/audit?operator=ops%40example.com'])
        await run.go(path, `${path} in ${lang}`);
    }
    await run.page.setExtraHTTPHeaders({});

    await Promise.all([run.page.waitForNavigation(), run.page.click('.who button[type=submit]')]);
    await logInWithKeyboard(run.page, run.panel.url);
    expect(new URL(run.page.url()).pathname).toBe('/login/code');
    await checkPage(run.page, 'the code step');
    await run.page.type('#code', codes[0]!);
    await Promise.all([run.page.waitForNavigation(), run.page.keyboard.press('Enter')]);
    expect(new URL(run.page.url()).pathname).toBe('/');
  }, 180_000);
});
