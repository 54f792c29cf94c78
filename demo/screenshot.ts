// `npm run screenshot`: starts the demo on free ports, photographs the widget on the partner and static pages and every
// page of the operator's panel, stops it. `-- --review DIR` also writes every panel page at 360 px and in dark mode to DIR.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import type { Page } from 'puppeteer-core';
import { REPO_ROOT as REPO } from '../server/repo.ts';
import { freePort, launchChromium } from '../tools/launch.ts';
import type { DemoOperatorFile } from '../cli/demo-panel.ts';
import { openStore } from '../server/store/store.ts';
import { startDemo } from './launch.ts';
import { settled, watchPage } from './page-settled.ts';
import { DESKTOP, photographPanel } from './screenshot-panel.ts';

const DOCS = join(REPO, 'docs');
const WIDTH = DESKTOP;

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
  const watched = watchPage(page);
  await page.goto(url);
  await page.waitForSelector(shot.ready, { timeout: 15_000 });
  await settled(page, watched);
  const box = await (await page.$(shot.section))?.boundingBox();
  if (!box) throw new Error(`${url}: ${shot.section} is not visible`);
  const path = join(DOCS, shot.file);
  // The section's own padding is the margin: nothing of the neighbouring sections shows. The page is not scrolled, so
  // the box's viewport coordinates are page coordinates; a clip may reach below the viewport (captureBeyondViewport).
  await page.screenshot({ path, clip: { x: 0, y: box.y, width: WIDTH, height: box.height + 8 } });
  return path;
}

/** `--review DIR`: where every panel page at 360 px and in dark mode goes, to look at (not for the docs). */
function reviewDirOf(argv: string[]): string | undefined {
  const at = argv.indexOf('--review');
  if (at === -1) return undefined;
  const dir = argv[at + 1];
  if (!dir) throw new Error('--review needs a folder');
  mkdirSync(dir, { recursive: true });
  return dir;
}

async function main(): Promise<void> {
  const review = reviewDirOf(process.argv.slice(2));
  const tmp = mkdtempSync(join(tmpdir(), 'listings-screenshot-'));
  const port = await freePort();
  const panelPort = await freePort();
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
      '--panel-port',
      String(panelPort),
      '--quiet',
    ],
    { cwd: REPO },
  );
  const browser = await launchChromium();
  const wrote = (path: string) =>
    process.stdout.write(`wrote ${relative(REPO, path)} (${Math.round(statSync(path).size / 1024)} KiB)\n`);
  try {
    mkdirSync(DOCS, { recursive: true });
    for (const shot of SHOTS) {
      const url = demo.urls[shot.page];
      if (!url) throw new Error(`the demo printed no URL for "${shot.page}"`);
      // A fresh context per page: no cache or storage carried over from the previous shot.
      const context = await browser.createBrowserContext();
      const page = await context.newPage();
      await page.setViewport({ width: WIDTH, height: 900, deviceScaleFactor: 1 });
      wrote(await photograph(page, url, shot));
      await context.close();
    }
    // The panel as the demo operator, who logs in with what `npm start` printed and kept beside the demo keys.
    const login = JSON.parse(readFileSync(join(tmp, 'demo-operator.json'), 'utf8')) as DemoOperatorFile;
    const panel = demo.urls['Operator panel'];
    if (!panel) throw new Error('the demo printed no URL for "Operator panel"');
    // The demo's database, opened beside the running demo, for what only a serving node writes (counted clicks).
    const store = await openStore(join(tmp, 'demo.db'));
    try {
      await photographPanel(browser, new URL(panel).origin, login, { docs: DOCS, review }, store, wrote);
    } finally {
      await store.close();
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
