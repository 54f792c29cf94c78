// The rental page at 360 px in Chromium: its Cumulative Layout Shift, from the browser's own layout-shift entries once
// the page has loaded and every photo (lazy ones too, scrolled to) has decoded, stays under 0.01.
import { fileURLToPath } from 'node:url';
import type { Browser } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyImport } from '../server/store/facilities.ts';
import { parseImport } from '../server/domain/import.ts';
import { launchChromium } from '../tools/launch.ts';
import { demoJson } from './helpers/fixture.ts';
import { useDemoServer } from './helpers/setup.ts';
import { until } from './helpers/wait.ts';

const IMAGES = fileURLToPath(new URL('../demo/pages/img/', import.meta.url));
/** The goal: "good" is below 0.1; the page is static, so anything it shifts is its own doing. */
const GOAL = 0.01;
/** How late each photo's answer starts: long enough that the page has been drawn without it. */
const PHOTO_LATENCY_MS = 600;

const demo = useDemoServer({ app: { mounts: [{ prefix: '/demo/img/', dir: IMAGES }] } });
let browser: Browser;

beforeAll(async () => {
  // The demo's photos, served by this server; one listing's without the sizes an operator may leave out.
  const wro = demoJson().facilities.find((f) => f.id === 'wro-1');
  const here = JSON.parse(
    JSON.stringify(wro).replaceAll('http://127.0.0.1:8787/demo/img/', `${demo.app.url}/demo/img/`),
  );
  for (const photo of here.listings[0].photos) {
    delete photo.width;
    delete photo.height;
  }
  applyImport(demo.db, parseImport(JSON.stringify({ facilities: [here] }), 'photos.json'));
  browser = await launchChromium();
}, 60_000);
afterAll(() => browser?.close());

interface Shift {
  value: number;
  sources: string[];
}

/** The page's layout shifts not caused by input, after load, a scroll to its end and every image decoded. */
async function shiftsOf(path: string, width: number): Promise<Shift[]> {
  const page = await browser.newPage();
  try {
    await page.setViewport({ width, height: 720 });
    // Photos arrive well after the page is drawn, as they do from a photo host on a phone's network.
    await page.setRequestInterception(true);
    page.on('request', (r) => {
      if (r.resourceType() === 'image') setTimeout(() => void r.continue(), PHOTO_LATENCY_MS);
      else void r.continue();
    });
    await page.goto(`${demo.app.url}${path}`, { waitUntil: 'load' });
    // A visitor reads on down, a screen at a time; lazy photos load as they come into view.
    const height = await page.evaluate(() => document.documentElement.scrollHeight);
    for (let y = 0; y <= height; y += 360) {
      await page.evaluate((top) => window.scrollTo(0, top), y);
      await until(`photos in view at ${y} px loaded`, () =>
        page.evaluate(() =>
          [...document.images]
            .filter((img) => img.getBoundingClientRect().top < innerHeight && img.getBoundingClientRect().bottom > 0)
            .every((img) => img.complete),
        ),
      );
    }
    await until('every photo loaded', () =>
      page.evaluate(() => [...document.images].every((img) => img.complete && img.naturalWidth > 0)),
    );
    return await page.evaluate(async () => {
      await Promise.all([...document.images].map((img) => img.decode()));
      await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
      return new Promise<Shift[]>((resolve) => {
        new PerformanceObserver((list, observer) => {
          observer.disconnect();
          type LayoutShift = PerformanceEntry & { value: number; hadRecentInput: boolean; sources: { node?: Node }[] };
          resolve(
            (list.getEntries() as LayoutShift[])
              .filter((e) => !e.hadRecentInput)
              .map((e) => ({
                value: e.value,
                sources: e.sources.map((s) =>
                  s.node instanceof Element ? `${s.node.localName}.${s.node.className}` : String(s.node?.nodeName),
                ),
              })),
          );
        }).observe({ type: 'layout-shift', buffered: true });
        // No entry at all: the buffered callback never runs, so an empty list is the answer a frame later.
        setTimeout(() => resolve([]), 500);
      });
    });
  } finally {
    await page.close();
  }
}

/** Every active listing of the demo's wro-1: photos with sizes, photos without (XS-01), none, promotions, fees. */
const LISTINGS: string[] = demoJson()
  .facilities.find((f) => f.id === 'wro-1')
  .listings.filter((l: { active: boolean }) => l.active)
  .map((l: { code: string }) => l.code);

/** Each page's figure, printed once at the end: the figure the docs and the lead quote. */
const figures: string[] = [];
afterAll(() => void process.stdout.write(`rental page CLS at 360 px: ${figures.join(', ')}\n`));

describe('the rental page does not move as it loads (Chromium, 360 px, photos arriving late)', () => {
  it.each(LISTINGS)('/rent/wro-1/%s', async (code) => {
    const shifts = await shiftsOf(`/rent/wro-1/${encodeURIComponent(code)}`, 360);
    const cls = shifts.reduce((sum, s) => sum + s.value, 0);
    figures.push(`${code} ${cls.toFixed(4)}`);
    expect(cls, `what moved: ${JSON.stringify(shifts)}`).toBeLessThan(GOAL);
  });
});
