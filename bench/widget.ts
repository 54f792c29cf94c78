// `npm run bench:widget [-- --quick] [--runs N] [--listings N]`: the built widget rendering 200 listings in headless
// Chromium, timed from the moment the list data has arrived to rendered cards (median of several page loads), and the
// bundle's size. The page is bench/widget/; our own server serves it, the bundle and the API (one facility, a real key).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import { freePort, launchChromium } from '../tools/launch.ts';
import { startApp } from '../server/app.ts';
import { loadConfig } from '../server/config.ts';
import { generateDb, issueKeys } from './lib/data.ts';
import { median } from './lib/measure.ts';
import { machine, resultsText } from './lib/report.ts';
import { ensureBuilt } from '../tools/build.ts';
import { REPO } from './lib/servers.ts';

const { values: args } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    runs: { type: 'string' },
    listings: { type: 'string', default: '200' },
    out: { type: 'string', default: join(REPO, 'bench', 'widget-results.json') },
  },
});
const runs = Number(args.runs ?? (args.quick ? 5 : 30));
const listings = Number(args.listings);
const BUNDLE = join(REPO, 'dist', 'widget', 'storage-listings.js');
const BUDGET_GZIP_BYTES = 22 * 1024; // test/widget-size.test.ts
const out = (text: string) => process.stdout.write(text);

interface PageResult {
  cards?: number;
  loadedMs?: number;
  domMs?: number;
  paintedMs?: number;
  error?: string;
}

async function main() {
  ensureBuilt((line) => out(`${line}\n`)); // measure the widget as the sources are now, never an old bundle
  const bundle = readFileSync(BUNDLE);
  const gzip = gzipSync(bundle, { level: 9 }).length;
  const dir = mkdtempSync(join(tmpdir(), 'listings-bench-widget-'));
  const db = generateDb(dir, 'widget', 1, listings);
  const config = loadConfig({ db: db.file, host: '127.0.0.1', port: await freePort() }, {});
  const app = await startApp({
    config,
    quiet: true,
    mounts: [{ prefix: '/bench/', dir: join(REPO, 'bench', 'widget') }],
  });
  const key = issueKeys(db, 1)[0]!;
  const browser = await launchChromium();
  const results: PageResult[] = [];
  try {
    const context = await browser.createBrowserContext();
    const page = await context.newPage();
    await page.setViewport({ width: 1280, height: 900 });
    await page.evaluateOnNewDocument((key: string) => Object.assign(window, { benchKey: key }), key);
    // The page reports through a binding. Polling it (waitForFunction, evaluate) would run the driver's script in the
    // page while it renders: main-thread work that can land inside the timed frame.
    let settle: ((r: PageResult) => void) | undefined;
    await page.exposeFunction('benchReport', (r: PageResult) => settle?.(r));
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e instanceof Error ? e.message : String(e)));
    for (let i = 0; i < runs; i++) {
      let timer: NodeJS.Timeout | undefined;
      const reported = new Promise<PageResult>((resolve, reject) => {
        settle = resolve;
        timer = setTimeout(() => reject(new Error(`run ${i + 1}: no result from the page within 30 s`)), 30_000);
      });
      // The result comes through the binding; the navigation itself need not have finished loading.
      await page.goto(`${app.url}/bench/index.html`, { waitUntil: 'domcontentloaded' });
      const r = await reported.finally(() => clearTimeout(timer));
      if (r.error || r.cards !== listings)
        throw new Error(`run ${i + 1}: ${r.error ?? `${r.cards} cards rendered, expected ${listings}`}`);
      results.push(r);
    }
    if (errors.length > 0) throw new Error(`page errors: ${errors.join(' | ')}`);
  } finally {
    await browser.close();
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  }

  const report = {
    date: new Date().toISOString(),
    command: `npm run bench:widget${process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(' ')}` : ''}`,
    machine: { ...machine(), chromium: process.env.CHROME_PATH || '/usr/bin/chromium' },
    listings,
    runs,
    // The summary of the runs only: each run's figures are printed, not kept.
    data_to_load_event_ms: summaryOf(results.map((r) => r.loadedMs!)),
    data_to_dom_ms: summaryOf(results.map((r) => r.domMs!)),
    data_to_painted_ms: summaryOf(results.map((r) => r.paintedMs!)),
    bundle: { bytes: bundle.length, gzip_bytes: gzip, gzip_budget_bytes: BUDGET_GZIP_BYTES },
  };
  const text = resultsText(report);
  writeFileSync(args.out!, text + '\n');
  out(
    `${text}\nwrote ${args.out} (from the list data's arrival to: load event, cards in the DOM, next frame painted)\n`,
  );
}

main().catch((err: Error) => {
  console.error(`bench:widget: ${err.stack ?? err.message}`);
  process.exitCode = 1;
});

const summaryOf = (ms: number[]) =>
  Object.fromEntries(
    [median(ms), Math.min(...ms), Math.max(...ms)].map((x, i) => [
      ['median', 'min', 'max'][i],
      Math.round(x * 10) / 10,
    ]),
  );
