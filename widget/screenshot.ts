// `node --import tsx widget/screenshot.ts`: photographs the built widget (npm run build) showing promotions, features and
// the facility header, then a details dialog with the move-in total, from the browser tests' `terms` fixtures served as
// a snapshot on a free local port, in headless Chromium: docs/screenshot-promotion.png and docs/screenshot-move-in.png;
// and at 360 px, the plain listings before and after their data arrives (the same height): docs/screenshot-360-*.png.
import { readFileSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { fileURLToPath } from 'node:url';
import type { Page } from 'puppeteer-core';
import { freePort, launchChromium } from '../tools/launch.ts';
import { absolutize, fixtures, TERMS_FACILITY } from './test/server/fixtures.js';

const path = (relative: string) => fileURLToPath(new URL(relative, import.meta.url));
const DIST = path('../dist/widget/');
/** The module and its chunks (chunks/NAME-HASH.js): the header and the dialog load on demand. */
const SCRIPT = /^\/((?:chunks\/)?[\w-]+\.js)$/;

const page = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <title>storage-listings: promotions, move-in and the facility header</title>
    <script type="module" src="/storage-listings.js"></script>
    <style>body { margin: 0; padding: 24px; font-family: system-ui, sans-serif; background: #f3f4f6; }</style>
  </head>
  <body>
    <storage-listings src="/snap/listings.json" locale="en" show-facility></storage-listings>
  </body>
</html>`;

/** The plain listings at a phone's width; their snapshot is held back until `release` is called. */
const phonePage = page
  .replace('show-facility', 'cards="3"')
  .replace('/snap/listings.json', '/snap/basic.json')
  .replace('padding: 24px', 'padding: 16px');
let release = () => {};
const held = new Promise<void>((resolve) => (release = resolve));

/** A photo of the fixtures: a flat colour from its name. */
function image(name: string): string {
  const hue = [...name].reduce((sum, c) => sum + c.charCodeAt(0), 0) % 360;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="400" height="300"><rect width="400" height="300" fill="hsl(${hue} 40% 70%)"/></svg>`;
}

function serve(port: number): Promise<Server> {
  const origin = `http://127.0.0.1:${port}`;
  const snapshot = {
    facility: TERMS_FACILITY,
    listings: fixtures.terms.map((l) => absolutize(l, origin)),
    version: 1,
    generated_at: new Date().toISOString(),
    expires_at: new Date(Date.now() + 7 * 24 * 3600_000).toISOString(),
    kid: 'screenshot',
  };
  const basic = { ...snapshot, listings: fixtures.basic.map((l) => absolutize(l, origin)) };
  const server = createServer(async (req, res) => {
    const url = req.url ?? '/';
    if (url === '/snap/basic.json') await held;
    if (url === '/snap/basic.json' || url === '/phone.html') {
      const [type, body] =
        url === '/phone.html' ? ['text/html', phonePage] : ['application/json', JSON.stringify(basic)];
      return void res.writeHead(200, { 'Content-Type': type }).end(body);
    }
    const [type, body] = SCRIPT.test(url)
      ? ['text/javascript', readFileSync(`${DIST}${SCRIPT.exec(url)![1]}`)]
      : url === '/snap/listings.json'
        ? ['application/json', JSON.stringify(snapshot)]
        : url.startsWith('/img/')
          ? ['image/svg+xml', image(url)]
          : ['text/html', page];
    res.writeHead(200, { 'Content-Type': type }).end(body);
  });
  return new Promise((resolve) => server.listen(port, '127.0.0.1', () => resolve(server)));
}

/** Photographs the element into docs/`file` and answers its height in CSS pixels. */
async function shoot(target: Page, selector: string, file: string): Promise<number> {
  const element = await target.waitForSelector(selector, { timeout: 15_000 });
  const box = await element!.boundingBox();
  await element!.screenshot({ path: path(`../docs/${file}`) });
  const kib = Math.round(statSync(path(`../docs/${file}`)).size / 1024);
  process.stdout.write(`wrote docs/${file} (${kib} KiB, ${box?.width} x ${box?.height} px)\n`);
  return box?.height ?? 0;
}

const port = await freePort();
const server = await serve(port);
const browser = await launchChromium();
try {
  const tab = await browser.newPage();
  await tab.setViewport({ width: 1180, height: 1000, deviceScaleFactor: 1 });
  await tab.goto(`http://127.0.0.1:${port}/`);
  await tab.waitForSelector('storage-listings >>> [part~="promotion"]', { timeout: 15_000 });
  await tab.waitForNetworkIdle({ idleTime: 300 });
  await shoot(tab, 'storage-listings', 'screenshot-promotion.png');
  await tab.click('storage-listings >>> [data-listing-id] [data-action="details"]');
  await tab.waitForSelector('storage-listings >>> dialog[open] [part~="move-in"]');
  await shoot(tab, 'storage-listings >>> dialog[open]', 'screenshot-move-in.png');
  await tab.setViewport({ width: 360, height: 800, deviceScaleFactor: 1 });
  await tab.goto(`http://127.0.0.1:${port}/phone.html`);
  await tab.waitForSelector('storage-listings >>> .skeleton');
  const loading = await shoot(tab, 'storage-listings', 'screenshot-360-loading.png');
  release();
  await tab.waitForSelector('storage-listings >>> [part~="listing"]');
  await tab.waitForNetworkIdle({ idleTime: 300 });
  const loaded = await shoot(tab, 'storage-listings', 'screenshot-360-loaded.png');
  if (loading !== loaded) throw new Error(`at 360 px the element is ${loading} px high loading, ${loaded} px loaded`);
} finally {
  await browser.close();
  server.close();
}
