// The panel's long lists in process: the facilities list a page of 50 from one store query with a search, the
// Listings tab a page of 50, and a language header that names no language still shows every label.
import { afterEach, describe, expect, it } from 'vitest';
import { hashPassword } from '../server/domain/passwords.ts';
import { parseImport } from '../server/domain/import.ts';
import { openStore, type Store } from '../server/store/store.ts';
import { tempDir } from './helpers/fixture.ts';
import { OPERATOR, PASSWORD, panelClient, panelOver, panelStore, type PanelHandle } from './helpers/panel.ts';
import { manyFacilities, mixedFacility } from './helpers/panel-data.ts';
import { readListingFilter, shownListings, type PanelListing } from '../shared/panel-listings.ts';
import { priceOf, type PricedListing } from '../shared/pricing.ts';
import { pageNumberOf } from '../server/panel/pages/pager.ts';

let cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.reverse()) await c();
  cleanups = [];
});

/**
 * A store over a new file with `data` imported and the operator added; every store call's name in `calls`, and how
 * many listings each Listings tab read gave in `pageSizes`.
 */
async function storeWith(data: unknown): Promise<{ store: Store; calls: string[]; pageSizes: number[] }> {
  const { dir, cleanup } = tempDir();
  const store = await openStore(`${dir}/listings.db`);
  cleanups.push(cleanup, () => store.close());
  await store.applyImport(parseImport(JSON.stringify(data), 'test.json'));
  await store.addOperator(OPERATOR, await hashPassword(PASSWORD));
  const calls: string[] = [];
  const pageSizes: number[] = [];
  const counted = new Proxy(store, {
    get(target, name) {
      const value = Reflect.get(target, name) as unknown;
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        calls.push(String(name));
        const result = (value as (...a: unknown[]) => unknown).apply(target, args);
        if (name === 'panelListingPage')
          void (result as ReturnType<Store['panelListingPage']>).then((p) => pageSizes.push(p?.listings.length ?? 0));
        return result;
      };
    },
  });
  return { store: counted, calls, pageSizes };
}

async function loggedIn(store: Store) {
  const handle: PanelHandle = panelOver(store);
  const s = await panelClient(() => handle).session();
  const page = async (url: string, headers: Record<string, string> = {}) => {
    const answer = await s.as('GET', url, {}, headers);
    expect([url, answer.status]).toEqual([url, 200]);
    return String(answer.body);
  };
  return { page, request: panelClient(() => handle).request };
}

/** The codes of one page of the tab for `query`, and how many the filter shows, from every listing in the file. */
function shownBy(data: ReturnType<typeof mixedFacility>, query: string): { page: string[]; shown: number } {
  const params = new URLSearchParams(query);
  const f = data.facilities[0]!;
  const all = f.listings.map((l: PricedListing) => ({
    ...l,
    price: priceOf(l, { currency: f.currency, pricing_rules: f.pricing_rules }),
  })) as unknown as PanelListing[];
  const ordered = [...all.filter((l) => l.active), ...all.filter((l) => !l.active)];
  const shown = shownListings(ordered, readListingFilter(params));
  const from = (pageNumberOf(params) - 1) * 50;
  return { page: shown.slice(from, from + 50).map((l) => l.code), shown: shown.length };
}

const rowsOf = (html: string) => [...html.matchAll(/<th scope="row">(?:<a href="\/facilities\/([^"]+)")?([^<]*)/g)];
const READS = new Set(['facilityPage', 'listFacilities', 'facilityData', 'panelListingPage', 'facilityHead']);

describe('the facilities list', () => {
  it('shows 50 facilities a page, counted by one store query, and pages through the rest', async () => {
    const { store, calls } = await storeWith(manyFacilities(120, 20));
    const { page } = await loggedIn(store);
    calls.length = 0;
    const first = await page('/');
    expect(calls.filter((c) => READS.has(c))).toEqual(['facilityPage']);
    expect(rowsOf(first).map((r) => r[1])).toEqual(
      Array.from({ length: 50 }, (_, i) => `fac-${String(i).padStart(4, '0')}`),
    );
    expect(first).toContain('Page 1 of 3');
    expect(first).toContain('href="/?page=2"');
    // 20 listings with 0, 1, 2, 0, ... free units: 19 free in all.
    expect(first).toMatch(/20 active of 20<\/td>\s*<td>19<\/td>/);
    expect(rowsOf(await page('/?page=2'))[0]![1]).toBe('fac-0050');
    expect(rowsOf(await page('/?page=3'))).toHaveLength(20);
    expect(rowsOf(await page('/?page=junk'))[0]![1]).toBe('fac-0000');
    const past = await page('/?page=9');
    expect(past).toContain('There is no such page: the list has 3.');
    expect(past).toContain('href="/?page=3" rel="prev"');
    expect(past).not.toContain('No facility matches');
  });

  it('is no larger for many facilities of many listings than for a few of few', async () => {
    const few = await loggedIn((await storeWith(manyFacilities(60, 2))).store);
    const many = await loggedIn((await storeWith(manyFacilities(600, 30))).store);
    const [small, large] = [await few.page('/'), await many.page('/')];
    // Only digits differ: those of three counts per row, and of the number of pages.
    expect(large.length - small.length).toBeLessThanOrEqual(50 * 6 + 2);
  });

  it('finds facilities by name or id, case-insensitively, with % and _ taken as they are', async () => {
    const data = manyFacilities(20, 1, (i) => (i === 2 ? 'Łódź Bałuty' : i % 2 ? `Lager ${i}` : `Box_${i}`));
    const { page } = await loggedIn((await storeWith(data)).store);
    const ids = async (q: string) => rowsOf(await page(`/?q=${encodeURIComponent(q)}`)).map((r) => r[1]);
    expect(await ids('LAGER 1')).toEqual(['fac-0001', 'fac-0011', 'fac-0013', 'fac-0015', 'fac-0017', 'fac-0019']);
    expect(await ids('fac-0004')).toEqual(['fac-0004']);
    expect(await ids('_')).toHaveLength(9);
    expect(await ids('Łódź')).toEqual(['fac-0002']);
    const none = await page('/?q=%25');
    expect(rowsOf(none)).toEqual([]);
    expect(none).toContain('No facility matches the search.');
    expect(none).toContain('value="%"');
  });
});

describe('the Listings tab', () => {
  it('shows 50 listings a page, sorted and filtered over all of them, without a data block', async () => {
    const { store, calls } = await storeWith(manyFacilities(1, 120));
    const { page } = await loggedIn(store);
    const codes = async (url: string) => rowsOf(await page(url)).map((r) => r[2]);
    calls.length = 0;
    const first = await page('/facilities/fac-0000');
    // One page of the listings, inactive ones included, with the facility their terms are made with.
    expect(calls.filter((c) => READS.has(c))).toEqual(['facilityHead', 'panelListingPage']);
    expect(rowsOf(first)).toHaveLength(50);
    expect(first).not.toContain('<script type="application/json">');
    expect(first).toContain('120 of 120 listings');
    expect(await codes('/facilities/fac-0000?page=3')).toHaveLength(20);
    const past = await page('/facilities/fac-0000?page=9');
    expect(past).toContain('There is no such page: the list has 3.');
    expect(past).not.toContain('<td colspan="7">No listing matches');
    expect((await codes('/facilities/fac-0000?sort=-price'))[0]).toBe('U-0119');
    const second = await page('/facilities/fac-0000?sort=-price&page=2');
    expect(rowsOf(second)[0]![2]).toBe('U-0069');
    expect(second).toContain('href="?sort=-price&amp;page=3"');
    const filtered = await page('/facilities/fac-0000?min_area=100');
    expect(filtered).toContain('21 of 120 listings');
    expect(rowsOf(filtered).map((r) => r[2])[0]).toBe('U-0099');
  });

  it('reads one page of a large facility in every order and filter, as the tab showed it from every listing', async () => {
    const data = mixedFacility(1000);
    const { store, calls, pageSizes } = await storeWith(data);
    const { page } = await loggedIn(store);
    for (const query of [
      '',
      '?page=4',
      '?sort=code',
      '?sort=code&page=2',
      '?sort=price',
      '?sort=-price&page=7',
      '?sort=area&page=3',
      '?sort=-area&min_area=10&max_area=20',
      '?state=inactive&sort=price',
      '?state=active&sort=code&page=16',
      '?min_area=61',
    ]) {
      calls.length = 0;
      const html = await page(`/facilities/mix-1${query}`);
      expect({ query, reads: calls.filter((c) => READS.has(c)) }).toEqual({
        query,
        reads: ['facilityHead', 'panelListingPage'],
      });
      const expected = shownBy(data, query);
      expect({ query, codes: rowsOf(html).map((r) => r[2]!.trim()) }).toEqual({ query, codes: expected.page });
      expect(html).toContain(`${expected.shown} of 1000 listings`);
    }
    expect(Math.max(...pageSizes)).toBeLessThanOrEqual(50);
  });

  it('keeps the data block for the browser when all listings fit on one page', async () => {
    const { store, cleanup } = await panelStore();
    cleanups.push(cleanup);
    const { page } = await loggedIn(store);
    expect(await page('/facilities/wro-1')).toContain('<script type="application/json">');
  });
});

describe('a language header that names no language', () => {
  it('shows English labels on the login page and logged-in pages', async () => {
    const { store, cleanup } = await panelStore();
    cleanups.push(cleanup);
    const { page, request } = await loggedIn(store);
    for (const header of ['__proto__', 'constructor', 'toString', 'hasOwnProperty, __proto__;q=0.9']) {
      const login = await request('GET', '/login', { headers: { 'accept-language': header } });
      expect([header, login.status]).toEqual([header, 200]);
      expect(String(login.body)).toContain('<html lang="en">');
      expect(String(login.body)).toContain('<label for="email">Email</label>');
      const home = await page('/', { 'accept-language': header });
      expect(home).toContain('<title>Facilities - storage-listings panel</title>');
      expect(await page('/facilities/wro-1', { 'accept-language': header })).toContain('Free units');
    }
  });
});
