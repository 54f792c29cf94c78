// Every demo listing's rental page, in each language it speaks, fits a phone's screen in Chromium: at 360 px and at
// 320 px wide nothing runs past the viewport, so no page scrolls sideways and no label is cut off.
import type { Browser } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LANGUAGES } from '../shared/languages.ts';
import { launchChromium } from '../tools/launch.ts';
import { demoJson } from './helpers/fixture.ts';
import { useDemoServer } from './helpers/setup.ts';

// Every page asked for at once and twice over: more than the default burst of one address.
const demo = useDemoServer({ app: { pageLimit: { rate: 1000, burst: 1000 } } });
let browser: Browser;

beforeAll(async () => {
  browser = await launchChromium();
}, 60_000);
afterAll(() => browser?.close());

const PATHS = demoJson().facilities.flatMap((f: { id: string; listings: { code: string; active?: boolean }[] }) =>
  f.listings.filter((l) => l.active !== false).map((l) => `/rent/${f.id}/${encodeURIComponent(l.code)}`),
);

interface Width {
  page: string;
  scrollWidth: number;
}

/** The document's width, and the page's status, for each listing and language at `width` px. */
async function widthsAt(width: number): Promise<Width[]> {
  const page = await browser.newPage();
  try {
    await page.setViewport({ width, height: 740 });
    const widths: Width[] = [];
    for (const path of PATHS)
      for (const language of LANGUAGES) {
        await page.setExtraHTTPHeaders({ 'Accept-Language': language });
        const answer = await page.goto(`${demo.app.url}${path}`, { waitUntil: 'load' });
        expect(answer?.status(), `${path} ${language}`).toBe(200);
        const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
        widths.push({ page: `${path} ${language}`, scrollWidth });
      }
    return widths;
  } finally {
    await page.close();
  }
}

describe('the rental page on a phone', () => {
  it.each([360, 320])(
    'is no wider than a %i px screen, every listing in every language',
    async (width) => {
      const widths = await widthsAt(width);
      expect(widths).toHaveLength(PATHS.length * LANGUAGES.length);
      expect(widths.filter((w) => w.scrollWidth > width)).toEqual([]);
    },
    120_000,
  );
});
