// The API from another website's page in real browsers: a cross-origin fetch with the key reads the list and its ETag,
// and sends that ETag back in If-None-Match (a header the preflight must allow) to get 304, as docs/api.md tells a
// partner to poll.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, launchFirefox } from '../tools/launch.ts';
import { startKeyedServer } from './helpers/fixture.ts';

const BROWSERS = { chromium: launchChromium, firefox: launchFirefox };

/** A partner's website: one empty page, on a port (so an origin) of its own. */
async function startPartnerSite(): Promise<{ url: string; server: Server }> {
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end('<!doctype html><html lang="en"><title>Partner</title></html>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

describe.each(Object.keys(BROWSERS) as (keyof typeof BROWSERS)[])('the API from another origin in %s', (name) => {
  let api: Awaited<ReturnType<typeof startKeyedServer>>;
  let partner: Awaited<ReturnType<typeof startPartnerSite>>;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    api = await startKeyedServer('wro-1');
    partner = await startPartnerSite();
    browser = await BROWSERS[name]();
    page = await browser.newPage();
    await page.goto(`${partner.url}/`);
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    partner?.server.close();
    await api?.close();
  });

  it('revalidates with If-None-Match: the preflight allows it, the answer is 304', async () => {
    expect(new URL(partner.url).origin).not.toBe(new URL(api.url).origin);
    const seen = await page.evaluate(
      async (url: string, key: string) => {
        const first = await fetch(url, { headers: { 'X-API-Key': key } });
        const etag = first.headers.get('ETag');
        try {
          const again = await fetch(url, { headers: { 'X-API-Key': key, 'If-None-Match': etag ?? '' } });
          return { first: first.status, etag, again: again.status, againEtag: again.headers.get('ETag') };
        } catch (error) {
          return { first: first.status, etag, again: String(error), againEtag: null };
        }
      },
      `${api.url}/external/listings`,
      api.key,
    );
    expect(seen.first).toBe(200);
    expect(seen.etag).toMatch(/^"[^"]+"$/);
    expect(seen.again).toBe(304);
    expect(seen.againEtag).toBe(seen.etag);
  }, 30_000);
});
