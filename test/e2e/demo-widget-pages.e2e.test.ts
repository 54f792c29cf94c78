// End to end: the real `npm start`'s pages with the widget, the partner site (the API's prices, a rent link to the
// listing's rental page) and the static site (the signed snapshot, verified), in the system Chromium and in WebKit.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ListResponse } from '../../shared/listing.ts';
import { launchFirefox, launchWebKit, type WebKit } from '../../tools/launch.ts';
import { useDemoInBrowser } from '../helpers/demo-e2e.ts';
import { REPO } from '../helpers/fixture.ts';

const e2e = useDemoInBrowser();
const { onPage, apiList } = e2e;

interface Card {
  id: string | null;
  price: string;
  free: string;
  rent: string | null;
}

/** In the page: the widget's cards, read through its documented shadow parts (its shadow root is open). */
function readCards(): Card[] {
  const cards = document.querySelector('storage-listings')?.shadowRoot?.querySelectorAll('[part~="listing"]') ?? [];
  return [...cards].map((el) => ({
    id: el.getAttribute('data-listing-id'),
    price: el.querySelector('[part~="price"]')?.textContent ?? '',
    free: el.querySelector('[part~="free-units"]')?.textContent ?? '',
    rent: el.querySelector('[part~="rent-link"]')?.getAttribute('href') ?? null,
  }));
}

async function cardsOf(page: Page): Promise<Card[]> {
  await page.waitForSelector('storage-listings >>> [part~="listing"]', { timeout: 15_000 }); // `>>>`: shadow roots
  return page.evaluate(readCards);
}

/** The listings the partner page must show: wro-1's active ones from demo/data.json, as the API answers them. */
async function partnerListings(): Promise<ListResponse['listings']> {
  const expected = await apiList('wro-1');
  const demoData = JSON.parse(readFileSync(join(REPO, 'demo', 'data.json'), 'utf8')) as {
    facilities: { id: string; listings: { code: string; active: boolean }[] }[];
  };
  const activeCodes = demoData.facilities
    .find((f) => f.id === 'wro-1')!
    .listings.filter((l) => l.active)
    .map((l) => l.code);
  expect(expected.listings.map((l) => l.code)).toEqual(activeCodes);
  return expected.listings;
}

/** The price a card shows big: the promotion that sets the first promoted period's price, else the regular one. */
function shownGross(listing: ListResponse['listings'][number]): number {
  const code = listing.schedule.find((run) => run.promotion !== null)?.promotion;
  return listing.promotions.find((p) => p.code === code)?.price.gross ?? listing.price.gross;
}

/** Every card shows its listing's API price (promoted where a promotion runs) and free units, and a rent link only
 * while a unit is free. */
function expectCardsOf(cards: Card[], listings: ListResponse['listings']): void {
  expect(cards.map((c) => c.id)).toEqual(listings.map((l) => l.id));
  for (const [i, listing] of listings.entries()) {
    const card = cards[i]!;
    expect(minorOf(card.price), `${listing.code} price`).toBe(shownGross(listing));
    expect(freeOf(card.free), `${listing.code} free units`).toBe(listing.free_units);
    expect(card.rent === null ? null : rentTarget(card.rent), `${listing.code} rent link`).toBe(
      listing.free_units > 0 ? listing.rent_url : null,
    );
  }
}

/** Where a rent link leads: a click URL (/go/, crediting the partner) stands for the rental page it redirects to. */
function rentTarget(href: string): string {
  const url = new URL(href);
  if (!url.pathname.startsWith('/go/')) return href;
  expect(url.searchParams.get('ref')).toMatch(/^[a-z0-9][a-z0-9-]*$/);
  return `${url.origin}${url.pathname.replace(/^\/go\//, '/rent/')}`;
}

/** The static page's listings: ber-1's, cheapest first, as the signed snapshot holds them. */
async function staticListingIds(): Promise<string[]> {
  const expected = await apiList('ber-1');
  return [...expected.listings].sort((a, b) => a.price.gross - b.price.gross).map((l) => l.id);
}

/** "PLN 94.05 / month" -> 9405 (currencies with two decimals); "22 units left" -> 22, "Last unit" -> 1, "Sold out" -> 0. */
const minorOf = (text: string) => Number(text.split('/')[0]!.replace(/\D/g, ''));
const freeOf = (text: string) =>
  /\d/.test(text) ? Number(text.replace(/\D/g, '')) : /last/i.test(text) ? 1 : /sold out/i.test(text) ? 0 : NaN;

describe('npm start, seen in Chromium (and its widget pages in Firefox and WebKit)', () => {
  /** The rental page, reached through the click URL: the partner's ref and the referral parameters on it. */
  const expectCredited = (url: string, rentUrl: string) => {
    const landed = new URL(url);
    expect(landed.origin + landed.pathname).toBe(rentUrl);
    expect(landed.searchParams.get('ref')).toMatch(/^[a-z0-9][a-z0-9-]*$/);
    expect(landed.searchParams.get('utm_source')).toBe(landed.searchParams.get('ref'));
    expect(landed.searchParams.get('utm_medium')).toBe('referral');
  };

  it('partner page: the widget lists every active listing with the API prices and free units; a rent link opens the same price', async () => {
    await onPage('Partner site', async (page, context) => {
      const listings = await partnerListings();
      expect(await page.$eval('storage-listings', (el) => el.getAttribute('api-key'))).toBe(e2e.keysFile.keys['wro-1']);
      expectCardsOf(await cardsOf(page), listings);
      // The demo's Wrocław facility runs promotions, so the promoted price is what some cards show.
      expect(listings.some((l) => shownGross(l) !== l.price.gross)).toBe(true);

      const listing = listings.find((l) => l.free_units > 0)!;
      const link = page.locator(
        `storage-listings >>> [part~="listing"][data-listing-id="${listing.id}"] [part~="rent-link"]`,
      );
      // The rent link opens a new tab (target=_blank, rel=noopener): the target this page opened.
      const [target] = await Promise.all([
        context.waitForTarget((t) => t.opener() === page.target(), { timeout: 15_000 }),
        link.setTimeout(15_000).click(),
      ]);
      const rental = (await target.page())!;
      // Loaded: past the initial about:blank, with its load event fired.
      await rental.waitForFunction(() => location.href !== 'about:blank' && document.readyState === 'complete', {
        timeout: 15_000,
      });
      expectCredited(rental.url(), listing.rent_url);
      const attribute = (selector: string, name: string) =>
        rental.$eval(selector, (el, name) => el.getAttribute(name), name);
      expect(Number(await attribute('[data-field="gross"]', 'data-minor'))).toBe(listing.price.gross);
      expect(Number(await attribute('[data-field="free_units"]', 'data-count'))).toBe(listing.free_units);
    });
  });

  it('partner page: the text below the widget does not move while the widget loads and its cards arrive', async () => {
    const shifts = async (page: Page) => {
      await cardsOf(page);
      // Two frames after the cards: any shift they cause is recorded by then.
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
      return page.evaluate(() => (window as unknown as { shifts: number[] }).shifts);
    };
    await onPage(
      'Partner site',
      async (page) => {
        const all = await shifts(page);
        expect(
          all.reduce((a, b) => a + b, 0),
          `layout shifts: ${all.join(', ')}`,
        ).toBeLessThan(0.01);
      },
      async (page) => {
        // The whole page in view, so every shift counts; shifts caused by input are not the page's doing.
        await page.setViewport({ width: 1280, height: 3000 });
        await page.evaluateOnNewDocument(() => {
          const w = window as unknown as { shifts: number[] };
          w.shifts = [];
          new PerformanceObserver((list) => {
            for (const e of list.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean })[])
              if (!e.hadRecentInput) w.shifts.push(e.value);
          }).observe({ type: 'layout-shift', buffered: true });
        });
      },
    );
  });

  it('static page: the widget shows the signed snapshot after verifying it, with no key', async () => {
    const fetched: string[] = [];
    const record = (page: Page) =>
      void page.on('response', (r) => void (r.status() === 200 && fetched.push(new URL(r.url()).pathname)));
    await onPage(
      'Static site',
      async (page) => {
        const cards = await cardsOf(page);
        expect(cards.map((c) => c.id)).toEqual(await staticListingIds());
        expect(await page.$$('storage-listings >>> [part~="error"]')).toHaveLength(0);
        expect(await page.$eval('storage-listings', (el) => el.getAttribute('api-key'))).toBeNull();
        expect(fetched).toEqual(
          expect.arrayContaining(['/demo/snapshots/ber-1/listings.json', '/demo/snapshots/keys.json']),
        );
        // The signature of the version named inside the pointer (contract, "Signed snapshots").
        expect(fetched.filter((p) => /^\/demo\/snapshots\/ber-1\/v\d+\/listings\.json\.sig$/.test(p))).toHaveLength(1);
        await page.waitForSelector('#verify-state[data-state="verified"]', { timeout: 15_000 });
        expect(await page.$eval('#verify-state', (el) => el.getAttribute('data-state'))).toBe('verified');
      },
      record,
    );
  });

  describe('in Firefox', () => {
    let firefox: Browser;
    beforeAll(async () => {
      firefox = await launchFirefox();
    }, 60_000);
    afterAll(() => firefox?.close());

    it('partner page: a rent link lands on the listing’s rental page, credited to the partner', async () => {
      const listings = await partnerListings();
      const page = await firefox.newPage();
      await page.goto(e2e.demo.urls['Partner site']!);
      expectCardsOf(await cardsOf(page), listings);
      const listing = listings.find((l) => l.free_units > 0)!;
      const link = page.locator(
        `storage-listings >>> [part~="listing"][data-listing-id="${listing.id}"] [part~="rent-link"]`,
      );
      const [target] = await Promise.all([
        firefox.waitForTarget((t) => t.url().includes('/rent/'), { timeout: 15_000 }),
        link.setTimeout(15_000).click(),
      ]);
      const rental = (await target.page())!;
      await rental.waitForFunction(() => document.readyState === 'complete', { timeout: 15_000 });
      expectCredited(rental.url(), listing.rent_url);
      const gross = await rental.$eval('[data-field="gross"]', (el) => el.getAttribute('data-minor'));
      expect(Number(gross)).toBe(listing.price.gross);
    });
  });

  describe('in WebKit', () => {
    let webkit: WebKit;
    let wk: WebdriverIO.Browser;
    beforeAll(async () => {
      webkit = await launchWebKit();
      wk = webkit.browser;
    }, 60_000);
    afterAll(() => webkit?.close());

    /** Opens one of the demo's printed URLs in the session's only window, then waits for the widget's cards. */
    async function open(label: string): Promise<Card[]> {
      await wk.url(e2e.demo.urls[label]!);
      await wk.waitUntil(async () => (await wk.execute(readCards)).length > 0, {
        timeout: 15_000,
        timeoutMsg: `${label}: no cards`,
      });
      return wk.execute(readCards);
    }

    it('partner page: the same cards as the API, and a rent link opens the listing’s rental page in a new window', async () => {
      const listings = await partnerListings();
      expectCardsOf(await open('Partner site'), listings);

      const listing = listings.find((l) => l.free_units > 0)!;
      const partner = await wk.getWindowHandle();
      const link = wk
        .$('storage-listings')
        .shadow$(`[part~="listing"][data-listing-id="${listing.id}"] [part~="rent-link"]`);
      let rental = '';
      const newWindow = async () => (rental = (await wk.getWindowHandles()).find((h) => h !== partner) ?? '');
      // WebKit's WebDriver does not scroll an element of a shadow tree into view before it clicks: the test does. The
      // page may still move as its photos arrive, so a click that opened nothing is made again where the link is now.
      for (let attempt = 0; attempt < 3 && !rental; attempt++) {
        await link.scrollIntoView();
        await link.click();
        await wk.waitUntil(newWindow, { timeout: 5_000 }).catch(() => undefined);
      }
      expect(rental, 'no new window').not.toBe('');
      try {
        await wk.switchToWindow(rental);
        await wk.waitUntil(
          () => wk.execute(() => location.href !== 'about:blank' && document.readyState === 'complete'),
          {
            timeout: 15_000,
          },
        );
        expectCredited(await wk.getUrl(), listing.rent_url);
        const [gross, free] = await wk.execute(() => [
          document.querySelector('[data-field="gross"]')?.getAttribute('data-minor'),
          document.querySelector('[data-field="free_units"]')?.getAttribute('data-count'),
        ]);
        expect(Number(gross)).toBe(listing.price.gross);
        expect(Number(free)).toBe(listing.free_units);
      } finally {
        await wk.closeWindow();
        await wk.switchToWindow(partner);
      }
    });

    it('static page: the widget verifies the signed snapshot (Ed25519 in WebKit’s WebCrypto) and shows it', async () => {
      const cards = await open('Static site');
      expect(cards.map((c) => c.id)).toEqual(await staticListingIds());
      await wk.waitUntil(
        () => wk.execute(() => document.querySelector('#verify-state')?.getAttribute('data-state') === 'verified'),
        { timeout: 15_000, timeoutMsg: 'not verified' },
      );
      const page = await wk.execute(() => ({
        errors: document.querySelector('storage-listings')?.shadowRoot?.querySelectorAll('[part~="error"]').length,
        apiKey: document.querySelector('storage-listings')?.getAttribute('api-key'),
        fetched: performance.getEntriesByType('resource').map((e) => new URL(e.name).pathname),
      }));
      expect(page.errors).toBe(0);
      expect(page.apiKey).toBeNull();
      expect(page.fetched).toEqual(
        expect.arrayContaining(['/demo/snapshots/ber-1/listings.json', '/demo/snapshots/keys.json']),
      );
      expect(page.fetched.filter((p) => /^\/demo\/snapshots\/ber-1\/v\d+\/listings\.json\.sig$/.test(p))).toHaveLength(
        1,
      );
    });
  });
});
