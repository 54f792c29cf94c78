// `npm run screenshot`: starts the demo on a free port, photographs the widget on the partner and static pages, stops it.
import { mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import type { Page } from 'puppeteer-core';
import { REPO_ROOT as REPO } from '../server/repo.ts';
import { freePort, launchChromium } from '../tools/launch.ts';
import { startDemo } from './launch.ts';

const DOCS = join(REPO, 'docs');
const WIDTH = 1280;

interface Shot {
  file: string;
  page: string;
  /** The part of the page to keep. */
  section: string;
  /** Ready when this selector matches (`>>>` is puppeteer's deep combinator: it reaches into the widget's shadow root). */
  ready: string;
}

const SHOTS: Shot[] = [
  {
    file: 'screenshot-partner.png',
    page: 'Partner site',
    section: '#storage',
    ready: 'storage-listings >>> [part~="listing"]',
  },
  {
    file: 'screenshot-static.png',
    page: 'Static site',
    section: '#lager',
    ready: '#verify-state[data-state="verified"]',
  },
];

async function photograph(page: Page, url: string, shot: Shot): Promise<string> {
  const errors: string[] = [];
  page.on('console', (m) => void (m.type() === 'error' && errors.push(m.text())));
  page.on('pageerror', (e) => errors.push(e instanceof Error ? e.message : String(e)));
  await page.goto(url);
  await page.waitForSelector(shot.ready, { timeout: 15_000 });
  // No request in flight for 500 ms.
  await page.waitForNetworkIdle({ idleTime: 500, timeout: 15_000 });
  // Every photo decoded, in the page and in the widget's shadow root, so no card is caught half-painted.
  await page.waitForFunction(() => {
    const roots: ParentNode[] = [
      document,
      ...[...document.querySelectorAll('storage-listings')].flatMap((w) => (w.shadowRoot ? [w.shadowRoot] : [])),
    ];
    return roots.every((r) => [...r.querySelectorAll('img')].every((img) => img.complete));
  });
  if (errors.length > 0) throw new Error(`${url}: console errors: ${errors.join(' | ')}`);
  const box = await (await page.$(shot.section))?.boundingBox();
  if (!box) throw new Error(`${url}: ${shot.section} is not visible`);
  const path = join(DOCS, shot.file);
  // The section's own padding is the margin: nothing of the neighbouring sections shows. The page is not scrolled, so
  // the box's viewport coordinates are page coordinates; a clip may reach below the viewport (captureBeyondViewport).
  await page.screenshot({ path, clip: { x: 0, y: box.y, width: WIDTH, height: box.height + 8 } });
  return path;
}

async function main(): Promise<void> {
  const tmp = mkdtempSync(join(tmpdir(), 'listings-screenshot-'));
  const port = await freePort();
  // A demo of its own (own database, keys and pages in tmp), so a demo already running from data/ keeps working.
  const demo = await startDemo(
    process.execPath,
    [
      'bin/listings.js',
      'demo',
      '--db',
      join(tmp, 'demo.db'),
      '--host',
      '127.0.0.1',
      '--port',
      String(port),
      '--public-url',
      `http://127.0.0.1:${port}`,
      '--quiet',
    ],
    { cwd: REPO },
  );
  const browser = await launchChromium();
  try {
    mkdirSync(DOCS, { recursive: true });
    for (const shot of SHOTS) {
      const url = demo.urls[shot.page];
      if (!url) throw new Error(`the demo printed no URL for "${shot.page}"`);
      // A fresh context per page: no cache or storage carried over from the previous shot.
      const context = await browser.createBrowserContext();
      const page = await context.newPage();
      await page.setViewport({ width: WIDTH, height: 900, deviceScaleFactor: 1 });
      const path = await photograph(page, url, shot);
      await context.close();
      process.stdout.write(`wrote ${relative(REPO, path)} (${Math.round(statSync(path).size / 1024)} KiB)\n`);
    }
  } finally {
    await browser.close();
    const stopped = await demo.stop();
    rmSync(tmp, { recursive: true, force: true });
    if (stopped.code !== 0)
      process.stderr.write(`the demo exited with ${stopped.signal ?? stopped.code}:\n${stopped.output}\n`);
  }
}

try {
  await main();
} catch (err) {
  console.error(`screenshot: ${(err as Error).message}`);
  process.exitCode = 1;
}
