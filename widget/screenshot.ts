// `node --import tsx widget/screenshot.ts`: photographs the built widget (npm run build) showing promotions, features and
// the facility header, then a details dialog with the move-in total, from the browser tests' `terms` fixtures served as
// a snapshot on a free local port, in headless Chromium: docs/screenshot-promotion.png and docs/screenshot-move-in.png.
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
  const server = createServer((req, res) => {
    const url = req.url ?? '/';
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

async function shoot(target: Page, selector: string, file: string): Promise<void> {
  const element = await target.waitForSelector(selector, { timeout: 15_000 });
  await element!.screenshot({ path: path(`../docs/${file}`) });
  process.stdout.write(`wrote docs/${file} (${Math.round(statSync(path(`../docs/${file}`)).size / 1024)} KiB)\n`);
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
} finally {
  await browser.close();
  server.close();
}
