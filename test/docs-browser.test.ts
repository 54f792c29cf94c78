// /docs in real browsers: Redoc draws both operations from /openapi.json under the page's CSP with no violation, no
// console error and nothing from another origin; a typed key shows in the curl samples and in no request, storage or
// cookie.
import type { Browser, HTTPRequest, Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, launchFirefox } from '../tools/launch.ts';
import { startKeyedServer } from './helpers/fixture.ts';

const BROWSERS = { chromium: launchChromium, firefox: launchFirefox };
const KEY = 'svc_live_TypedIntoThePage0123456789ab';

describe.each(Object.keys(BROWSERS) as (keyof typeof BROWSERS)[])('/docs in %s', (name) => {
  let server: Awaited<ReturnType<typeof startKeyedServer>>;
  let browser: Browser;
  let page: Page;
  const requests: HTTPRequest[] = [];
  const errors: string[] = [];
  let operations: string[];

  beforeAll(async () => {
    server = await startKeyedServer('wro-1');
    const doc = await (await fetch(`${server.url}/openapi.json`)).json();
    operations = Object.values(doc.paths as Record<string, { get: { summary: string } }>).map((p) => p.get.summary);
    browser = await BROWSERS[name]();
    page = await browser.newPage();
    page.on('request', (r) => requests.push(r));
    page.on('console', (m) => void (m.type() === 'error' && errors.push(m.text())));
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.evaluateOnNewDocument(() => {
      const seen: string[] = [];
      Object.assign(window, { violations: seen });
      document.addEventListener('securitypolicyviolation', (e) => seen.push(`${e.violatedDirective} ${e.blockedURI}`));
    });
    await page.goto(`${server.url}/docs`);
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('draws the two operations of /openapi.json, with no CSP violation and nothing from another origin', async () => {
    expect(operations).toHaveLength(2);
    await page.waitForFunction(
      (names: string[]) => names.every((n) => document.getElementById('reference')!.innerText.includes(n)),
      { timeout: 30_000 },
      operations,
    );
    expect(await page.evaluate(() => (window as unknown as { violations: string[] }).violations)).toEqual([]);
    const fetched = requests.map((r) => new URL(r.url())).filter((u) => u.protocol !== 'data:');
    const origins = new Set(fetched.map((u) => u.origin));
    expect([...origins]).toEqual([server.url]);
    expect(fetched.map((u) => u.pathname)).toContain('/docs/redoc.standalone.js');
    expect(fetched.map((u) => u.pathname)).toContain('/openapi.json');
    expect(errors).toEqual([]);
  }, 60_000);

  it('puts a typed key into both curl samples, and sends or stores it nowhere', async () => {
    const before = requests.length;
    await page.type('#api-key', KEY);
    const samples = await page.$$eval('.sample', (codes) => codes.map((c) => c.textContent));
    expect(samples).toHaveLength(2);
    for (const sample of samples) expect(sample).toContain(`X-API-Key: ${KEY}`);
    const kept = await page.evaluate(() => ({
      storage: JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }),
      cookie: document.cookie,
    }));
    expect(kept.storage).not.toContain(KEY);
    expect(kept.cookie).not.toContain(KEY);
    for (const r of requests.slice(before)) expect(JSON.stringify([r.url(), r.headers()])).not.toContain(KEY);
    expect(await page.evaluate(() => (window as unknown as { violations: string[] }).violations)).toEqual([]);
  }, 30_000);
});
