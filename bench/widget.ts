// `npm run bench:widget [-- --quick]`: the built widget rendering 200 listings in headless Chromium, from the list
// data's arrival to painted cards (bench/widget/), and the bundle's size.
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
import { chunksIn } from '../tools/browser-bundle.ts';
import { ensureBuilt } from '../tools/build.ts';
import { REPO } from './lib/servers.ts';

const { values: args } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    out: { type: 'string', default: join(REPO, 'bench', 'widget-results.json') },
  },
});
const [runs, listings] = [args.quick ? 5 : 30, 200];
const BUDGET_GZIP_BYTES = 22 * 1024; // test/widget-size.test.ts
type PageResult = { cards?: number; loadedMs: number; domMs: number; paintedMs: number; error?: string };

ensureBuilt((line) => process.stdout.write(`${line}\n`)); // the widget as the sources are now, never an old bundle
// What a page loads before anything shows: the entry and its core chunk.
const WIDGET = join(REPO, 'dist', 'widget');
const bundle = ['storage-listings.js', ...chunksIn(WIDGET).filter((c) => c.startsWith('chunks/core-'))].map((f) =>
  readFileSync(join(WIDGET, f)),
);
const dir = mkdtempSync(join(tmpdir(), 'listings-bench-widget-'));
const db = generateDb(dir, 'widget', [listings]);
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
  const page = await (await browser.createBrowserContext()).newPage();
  await page.setViewport({ width: 1280, height: 900 });
  await page.evaluateOnNewDocument((key: string) => Object.assign(window, { benchKey: key }), key);
  // The page reports through a binding: polling it would run the driver's script inside the timed frame.
  let settle: ((r: PageResult) => void) | undefined;
  await page.exposeFunction('benchReport', (r: PageResult) => settle?.(r));
  page.on('pageerror', (e) => settle?.({ error: String(e) } as PageResult));
  for (let i = 0; i < runs; i++) {
    let timer: NodeJS.Timeout | undefined;
    const reported = new Promise<PageResult>((resolve, reject) => {
      settle = resolve;
      timer = setTimeout(() => reject(new Error(`run ${i + 1}: no result from the page within 30 s`)), 30_000);
    });
    await page.goto(`${app.url}/bench/index.html`, { waitUntil: 'domcontentloaded' });
    const r = await reported.finally(() => clearTimeout(timer));
    if (r.error || r.cards !== listings) throw new Error(`run ${i + 1}: ${r.error ?? `${r.cards} cards rendered`}`);
    results.push(r);
  }
} finally {
  await browser.close();
  await app.close();
  rmSync(dir, { recursive: true, force: true });
}

const summaryOf = (ms: number[]) => ({ median: median(ms), min: Math.min(...ms), max: Math.max(...ms) });
const round = (x: Record<string, number>) =>
  Object.fromEntries(Object.entries(x).map(([k, v]) => [k, Math.round(v * 10) / 10]));
const report = {
  date: new Date().toISOString(),
  command: `npm run bench:widget${process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(' ')}` : ''}`,
  machine: { ...machine(), chromium: process.env.CHROME_PATH || '/usr/bin/chromium' },
  listings,
  runs,
  data_to_load_event_ms: round(summaryOf(results.map((r) => r.loadedMs))),
  data_to_dom_ms: round(summaryOf(results.map((r) => r.domMs))),
  data_to_painted_ms: round(summaryOf(results.map((r) => r.paintedMs))),
  bundle: {
    bytes: bundle.reduce((sum, b) => sum + b.length, 0),
    gzip_bytes: bundle.reduce((sum, b) => sum + gzipSync(b, { level: 9 }).length, 0),
    gzip_budget_bytes: BUDGET_GZIP_BYTES,
  },
};
writeFileSync(args.out!, resultsText(report) + '\n');
process.stdout.write(
  `${resultsText(report)}\nwrote ${args.out} (from the list data's arrival to the load event, the cards in the DOM, the next frame painted)\n`,
);
