// Operator text cannot turn the rental page's own words around: every value the operator wrote (names, titles, terms,
// captions, each part of the address) stands alone in an element that is a bidi isolate in Chromium (a block, a <bdi>
// or one the stylesheet isolates), so a RIGHT-TO-LEFT OVERRIDE in one reverses that value alone.
import type { Browser } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseImport } from '../server/domain/import.ts';
import { applyImport } from '../server/store/facilities.ts';
import { launchChromium } from '../tools/launch.ts';
import { demoJson } from './helpers/fixture.ts';
import { useDemoServer } from './helpers/setup.ts';
// The fields of the import an operator writes as free text, as the widget's tests mark them.
import { FREE_TEXT } from '../widget/test/server/terms.js';

const RLO = '\u202e';

/** The value with an override in front of every free-text field; `values` collects those written. */
function overridden(value: unknown, values: Set<string>, key = ''): unknown {
  if (typeof value === 'string' && FREE_TEXT.has(key)) {
    values.add(`${RLO}${value}`);
    return `${RLO}${value}`;
  }
  if (Array.isArray(value)) return value.map((v) => overridden(v, values));
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, overridden(v, values, k)]));
  return value;
}

/** Every free-text value of the facility, as imported. */
const VALUES = new Set<string>();

const demo = useDemoServer({
  prepare: (db) => {
    const wro = demoJson().facilities.find((f) => f.id === 'wro-1');
    const evil = overridden({ ...wro, address: { ...wro.address, region: 'Dolny Śląsk' } }, VALUES);
    applyImport(db, parseImport(JSON.stringify({ facilities: [evil] }), 'rlo.json'));
  },
});
let browser: Browser;

beforeAll(async () => {
  browser = await launchChromium();
}, 60_000);
afterAll(() => browser?.close());

interface Holder {
  element: string;
  text: string;
  unicodeBidi: string;
}

/** Each element whose own text holds the override, with its computed unicode-bidi. */
async function holdersOf(path: string): Promise<{ holders: Holder[]; title: string }> {
  const page = await browser.newPage();
  try {
    const answer = await page.goto(`${demo.app.url}${path}`, { waitUntil: 'load' });
    expect(answer?.status()).toBe(200);
    return await page.evaluate((rlo) => {
      const holders: Holder[] = [];
      const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        if (!node.textContent!.includes(rlo)) continue;
        const parent = node.parentElement!;
        holders.push({
          element: parent.outerHTML.slice(0, 80),
          text: node.textContent!,
          unicodeBidi: getComputedStyle(parent).unicodeBidi,
        });
      }
      return { holders, title: document.title };
    }, RLO);
  } finally {
    await page.close();
  }
}

describe('operator text with a bidi override', () => {
  it.each(['/rent/wro-1/M-07', '/rent/wro-1/W-02', '/rent/wro-1/XS-01'])('is isolated on %s', async (path) => {
    const { holders, title } = await holdersOf(path);
    // The name, title, description, promotion and its terms, fees, plans, captions and the address lines at least.
    expect(holders.length).toBeGreaterThan(8);
    expect(holders.filter((h) => h.unicodeBidi !== 'isolate')).toEqual([]);
    // Each value alone in its element: the words around it (the page's own, or another value) are outside the isolate.
    expect(holders.filter((h) => !VALUES.has(h.text.trim()))).toEqual([]);
    // The tab's title is plain text: each value sits between FIRST STRONG ISOLATE and POP DIRECTIONAL ISOLATE.
    expect(title).toMatch(/^\u2068\u202e[^\u2069]*\u2069 · \u2068\u202e[^\u2069]*\u2069$/);
  });
});
