// End to end: the real `npm start` on a free port, driven in the system Chromium: what it prints and writes, the start
// page and its link to the operator panel, the API reference, and a clean stop on Ctrl-C.
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { DemoOperatorFile } from '../../cli/demo-panel.ts';
import { useDemoInBrowser } from '../helpers/demo-e2e.ts';

const e2e = useDemoInBrowser();
const { onPage } = e2e;

describe('npm start, seen in Chromium (and its widget pages in WebKit)', () => {
  it('prints every page, writes its keys owner-only and answers the API', async () => {
    for (const label of [
      'Start here',
      'Partner site',
      'Comparison site',
      'Static site',
      'A rental page',
      'API reference',
    ]) {
      expect(e2e.demo.urls[label], label).toMatch(new RegExp(`^${e2e.base}/`));
    }
    expect(statSync(join(e2e.tmp, 'demo-keys.json')).mode & 0o777).toBe(0o600);
    expect(Object.keys(e2e.keysFile.keys).sort()).toEqual(['ber-1', 'krk-1', 'wro-1', 'zrh-1']);
  });

  it('the start page links every demo page', async () => {
    await onPage('Start here', async (page) => {
      const hrefs = await page.$$eval('main a', (as) => as.map((a) => a.getAttribute('href')));
      expect(hrefs).toEqual(
        expect.arrayContaining(['/demo/partner.html', '/demo/comparison.html', '/demo/static.html', '/docs']),
      );
    });
  });

  it('the start page links the operator panel, where the printed demo operator logs in', async () => {
    const panel = e2e.demo.urls['Operator panel']!;
    expect(panel).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/login$/);
    expect(new URL(panel).origin).not.toBe(e2e.base);
    // The password as the banner prints it, the same as the owner-only file beside the demo keys.
    const printed = /^Panel login: {2}(\S+) {2}(\S+) /m.exec(e2e.demo.output());
    expect(printed, 'a "Panel login:" line').not.toBeNull();
    const file = join(e2e.tmp, 'demo-operator.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({
      email: printed![1],
      password: printed![2],
    } satisfies Partial<DemoOperatorFile>);

    await onPage('Start here', async (page) => {
      const link = await page.$eval('main a[href$="/login"]', (a) => (a as HTMLAnchorElement).href);
      expect(link).toBe(panel);
      await Promise.all([page.waitForNavigation(), page.click('main a[href$="/login"]')]);
      await page.type('#email', printed![1]!);
      await page.type('#password', printed![2]!);
      await Promise.all([page.waitForNavigation(), page.click('main button[type=submit]')]);
      expect(page.url()).toBe(new URL('/', panel).href);
      // The facilities list of the demo's own data, and its embed snippets point at the demo's API.
      const ids = await page.$$eval('main a[href^="/facilities/"]', (as) => as.map((a) => a.getAttribute('href')));
      expect(ids).toEqual(expect.arrayContaining(Object.keys(e2e.keysFile.keys).map((id) => `/facilities/${id}`)));
    });
  });

  it('/docs renders the API reference with both operations', async () => {
    await onPage('API reference', async (page) => {
      // Redoc draws /openapi.json into #reference once its bundle has loaded.
      const names = ["List the key's facility's active listings", 'Get one listing in detail'];
      await page.waitForFunction(
        (all: string[]) => all.every((n) => document.getElementById('reference')?.innerText.includes(n)),
        { timeout: 30_000 },
        names,
      );
      expect(await page.$$eval('.sample', (codes) => codes.length)).toBe(2);
    });
  });

  it('Ctrl-C stops it cleanly; after its URLs it printed nothing, though every page above made requests', async () => {
    const { code, output } = await e2e.demo.stop();
    expect(output).toMatch(/^stopped$/m);
    expect(output).not.toMatch(/"level":"error"/);
    const afterBanner = output.slice(output.indexOf('Press Ctrl-C to stop.') + 'Press Ctrl-C to stop.'.length);
    expect(afterBanner.trim()).toBe('stopped'); // no request log lines without --verbose
    expect(code).toBe(0);
  });
});
