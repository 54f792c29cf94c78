// End to end: the real `npm start` on a free port, driven in the system Chromium: every demo page as a visitor sees it;
// the pages with the widget (partner site, static site) in WebKit too.
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page, Target } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemo, type RunningDemo } from '../../demo/launch.ts';
import { freePort, launchChromium, launchWebKit, type WebKit } from '../../tools/launch.ts';
import type { DemoKeysFile } from '../../cli/demo-site.ts';
import type { DemoOperatorFile } from '../../cli/demo-panel.ts';
import type { ListResponse } from '../../shared/listing.ts';
import { firstPeriodsCost } from '../../demo/pages/first-months.js';

const REPO = join(import.meta.dirname, '..', '..');

let tmp: string;
let demo: RunningDemo;
let browser: Browser;
let keysFile: DemoKeysFile;
let base: string;

beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'listings-e2e-'));
  const port = await freePort();
  const panelPort = await freePort();
  // `npm start` exactly, on its own database: its keys, pages and snapshots land in tmp, so a demo running from data/
  // is left alone. HOST and PUBLIC_URL are cleared so the demo's URLs carry this port.
  demo = await startDemo('npm', ['start', '--', '--db', join(tmp, 'demo.db')], {
    cwd: REPO,
    env: { PORT: String(port), PANEL_PORT: String(panelPort), HOST: '', PUBLIC_URL: '', KEY_PREFIX: '' },
    timeoutMs: 60_000,
  });
  keysFile = JSON.parse(readFileSync(join(tmp, 'demo-keys.json'), 'utf8')) as DemoKeysFile;
  base = keysFile.public_url;
  browser = await launchChromium();
}, 90_000);

afterAll(async () => {
  await browser?.close();
  await demo?.stop();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

/**
 * Collects a page's console errors, failed loads and uncaught exceptions through a DevTools session of its own. Its
 * Runtime.enable and Log.enable replay what the page logged before: a popup starts running before the driver's page
 * object (and any listener on it) exists, so page.on('console') alone would miss a popup's first errors.
 */
async function collectErrors(target: Target, errors: string[]): Promise<void> {
  const session = await target.createCDPSession();
  session.on('Runtime.consoleAPICalled', (e) => {
    if (e.type === 'error') errors.push(`${target.url()}: ${e.args.map((a) => a.value ?? a.description).join(' ')}`);
  });
  session.on('Runtime.exceptionThrown', (e) =>
    errors.push(`pageerror: ${e.exceptionDetails.exception?.description ?? e.exceptionDetails.text}`),
  );
  session.on('Log.entryAdded', ({ entry }) => {
    if (entry.level === 'error' && entry.source !== 'worker')
      errors.push(`${entry.url ?? target.url()}: ${entry.text}`);
  });
  await Promise.all([session.send('Runtime.enable'), session.send('Log.enable')]);
}

/**
 * Opens one of the demo's printed URLs in a fresh browser context, runs the checks, then asserts that no page the
 * context opened (popups included) logged a console error or threw.
 */
async function onPage(
  label: string,
  check: (page: Page, context: BrowserContext) => Promise<void>,
  before?: (page: Page) => void | Promise<void>,
): Promise<void> {
  const context = await browser.createBrowserContext();
  const errors: string[] = [];
  const watching = new Map<Target, Promise<void>>();
  const watch = (target: Target) => {
    if (!watching.has(target)) watching.set(target, collectErrors(target, errors));
    return watching.get(target)!;
  };
  // Every page of the context, popups included, as it appears (before any waitForTarget on it resolves).
  context.on('targetcreated', (target) => void (target.type() === 'page' && watch(target).catch(() => {})));
  try {
    const page = await context.newPage();
    await watch(page.target());
    await page.setViewport({ width: 1280, height: 900 });
    await before?.(page);
    await page.goto(demo.urls[label]!);
    await check(page, context);
    await Promise.all(watching.values()); // every page's replay is in
    expect(errors).toEqual([]);
  } finally {
    await context.close();
  }
}

async function apiList(facility: string): Promise<ListResponse> {
  const key = keysFile.keys[facility];
  expect(key, `demo-keys.json has a key for ${facility}`).toBeTruthy();
  const res = await fetch(`${base}/external/listings`, { headers: { 'X-API-Key': key! } });
  expect(res.status).toBe(200);
  return (await res.json()) as ListResponse;
}

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
    expect(card.rent, `${listing.code} rent link`).toBe(listing.free_units > 0 ? listing.rent_url : null);
  }
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

describe('npm start, seen in Chromium (and its widget pages in WebKit)', () => {
  it('prints every page, writes its keys owner-only and answers the API', async () => {
    for (const label of [
      'Start here',
      'Partner site',
      'Comparison site',
      'Static site',
      'A rental page',
      'API reference',
    ]) {
      expect(demo.urls[label], label).toMatch(new RegExp(`^${base}/`));
    }
    expect(statSync(join(tmp, 'demo-keys.json')).mode & 0o777).toBe(0o600);
    expect(Object.keys(keysFile.keys).sort()).toEqual(['ber-1', 'krk-1', 'wro-1', 'zrh-1']);
  });

  it('partner page: the widget lists every active listing with the API prices and free units; a rent link opens the same price', async () => {
    await onPage('Partner site', async (page, context) => {
      const listings = await partnerListings();
      expect(await page.$eval('storage-listings', (el) => el.getAttribute('api-key'))).toBe(keysFile.keys['wro-1']);
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
      expect(rental.url()).toBe(listing.rent_url);
      const attribute = (selector: string, name: string) =>
        rental.$eval(selector, (el, name) => el.getAttribute(name), name);
      expect(Number(await attribute('[data-field="gross"]', 'data-minor'))).toBe(listing.price.gross);
      expect(Number(await attribute('[data-field="free_units"]', 'data-count'))).toBe(listing.free_units);
    });
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

  it('comparison page: rows from every facility, each linking to its rental page', async () => {
    await onPage('Comparison site', async (page) => {
      const rows = '#results tr[data-listing-id]';
      await page.waitForSelector(rows, { timeout: 15_000 });
      const seen = await page.$$eval(rows, (trs) =>
        trs.map((tr) => ({
          id: (tr as HTMLElement).dataset.listingId,
          facility: (tr as HTMLElement).dataset.facility,
          href: tr.querySelector('a')?.getAttribute('href'),
        })),
      );
      const lists = await Promise.all(Object.keys(keysFile.keys).map(apiList));
      const all = lists.flatMap((l) => l.listings);
      expect(new Set(seen.map((r) => r.facility)).size).toBeGreaterThanOrEqual(2);
      expect(seen.map((r) => r.id).sort()).toEqual(all.map((l) => l.id).sort());
      for (const row of seen) expect(row.href).toBe(all.find((l) => l.id === row.id)!.rent_url);
      // Ranked within each currency by the first three months' cost (move-in and promotions included), lowest first.
      const ranked = await page.$$eval('#results tbody', (bodies) =>
        bodies.map((b) =>
          [...b.querySelectorAll('tr[data-first]')].map((tr) => Number((tr as HTMLElement).dataset.first)),
        ),
      );
      const costOf = (l: (typeof all)[number]) => firstPeriodsCost(l as Parameters<typeof firstPeriodsCost>[0]);
      expect(ranked.flat().sort((x, y) => x - y)).toEqual(all.map(costOf).sort((x, y) => x - y));
      for (const costs of ranked) expect(costs).toEqual([...costs].sort((x, y) => x - y));

      // The checkbox named by its label (the accessible name, as a visitor's screen reader finds it); the form
      // re-renders the table on its change event, while the click is dispatched.
      const freeOnly = '::-p-aria(Free units only)';
      await page.locator(freeOnly).setTimeout(15_000).click();
      expect(await page.$eval(freeOnly, (input) => (input as HTMLInputElement).checked)).toBe(true);
      expect(await page.$$(rows)).toHaveLength(all.filter((l) => l.free_units > 0).length);
    });
  });

  it('comparison page on a 390 px phone: every row shows its facility and its price, without sideways scrolling', async () => {
    await onPage(
      'Comparison site',
      async (page) => {
        const rows = '#results tr[data-listing-id]';
        await page.waitForSelector(rows, { timeout: 15_000 });
        const cells = await page.$$eval(rows, (trs) =>
          trs.map((tr) => {
            const box = (sel: string) => {
              const r = (tr.querySelector(sel) as HTMLElement).getBoundingClientRect();
              return {
                left: r.left,
                right: r.right,
                width: r.width,
                text: (tr.querySelector(sel) as HTMLElement).textContent,
              };
            };
            return { facility: box('td.facility'), price: box('td.price') };
          }),
        );
        expect(cells.length).toBeGreaterThan(0);
        for (const c of cells) {
          for (const cell of [c.facility, c.price]) {
            expect(cell.width).toBeGreaterThan(0);
            expect(cell.left).toBeGreaterThanOrEqual(0);
            expect(cell.right).toBeLessThanOrEqual(390);
            expect(cell.text!.trim()).not.toBe('');
          }
        }
        const wrap = await page.$eval('.table-wrap', (el) => ({ scroll: el.scrollWidth, client: el.clientWidth }));
        expect(wrap.scroll).toBeLessThanOrEqual(wrap.client);
      },
      (page) => page.setViewport({ width: 390, height: 844 }),
    );
  });

  it('the start page links every demo page', async () => {
    await onPage('Start here', async (page) => {
      const hrefs = await page.$$eval('main a', (as) => as.map((a) => a.getAttribute('href')));
      expect(hrefs).toEqual(
        expect.arrayContaining(['/demo/partner.html', '/demo/comparison.html', '/demo/static.html', '/docs']),
      );
    });
  });

  it('the start page links the operator panel, where the printed demo operator logs in', async () => {
    const panel = demo.urls['Operator panel']!;
    expect(panel).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/login$/);
    expect(new URL(panel).origin).not.toBe(base);
    // The password as the banner prints it, the same as the owner-only file beside the demo keys.
    const printed = /^Panel login: {2}(\S+) {2}(\S+) /m.exec(demo.output());
    expect(printed, 'a "Panel login:" line').not.toBeNull();
    const file = join(tmp, 'demo-operator.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({
      email: printed![1],
      password: printed![2],
    } satisfies Partial<DemoOperatorFile>);

    await onPage('Start here', async (page) => {
      const link = await page.$eval('main a[href$="/login"]', (a) => (a as HTMLAnchorElement).href);
      expect(link).toBe(panel);
      await Promise.all([page.waitForNavigation(), page.click('main a[href$="/login"]')]);
      await page.type('#email', printed![1]!);
      await page.type('#password', printed![2]!);
      await Promise.all([page.waitForNavigation(), page.click('main button[type=submit]')]);
      expect(page.url()).toBe(new URL('/', panel).href);
      // The facilities list of the demo's own data, and its embed snippets point at the demo's API.
      const ids = await page.$$eval('main a[href^="/facilities/"]', (as) => as.map((a) => a.getAttribute('href')));
      expect(ids).toEqual(expect.arrayContaining(Object.keys(keysFile.keys).map((id) => `/facilities/${id}`)));
    });
  });

  it('/docs renders the API reference with both paths', async () => {
    await onPage('API reference', async (page) => {
      // Server-rendered (server/http/pages/docs.ts): one section per path, its heading the path.
      const paths = await page.$$eval('section.path > h2 code', (codes) => codes.map((c) => c.textContent ?? ''));
      expect(paths).toEqual(['/external/listings', '/external/listings/{id}']);
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
      await wk.url(demo.urls[label]!);
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
        expect(await wk.getUrl()).toBe(listing.rent_url);
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

  it('Ctrl-C stops it cleanly; after its URLs it printed nothing, though every page above made requests', async () => {
    const { code, output } = await demo.stop();
    expect(output).toMatch(/^stopped$/m);
    expect(output).not.toMatch(/"level":"error"/);
    const afterBanner = output.slice(output.indexOf('Press Ctrl-C to stop.') + 'Press Ctrl-C to stop.'.length);
    expect(afterBanner.trim()).toBe('stopped'); // no request log lines without --verbose
    expect(code).toBe(0);
  });
});
