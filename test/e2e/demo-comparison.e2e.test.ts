// End to end: the real `npm start`'s comparison page in the system Chromium: every facility's listings ranked by the
// first months' cost, each linking to its rental page, filtered to free units, and readable on a 390 px phone.
import { describe, expect, it } from 'vitest';
import { firstPeriodsCost } from '../../demo/pages/first-months.js';
import { useDemoInBrowser } from '../helpers/demo-e2e.ts';

const e2e = useDemoInBrowser();
const { onPage, apiList } = e2e;

describe('npm start, seen in Chromium (and its widget pages in WebKit)', () => {
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
      const lists = await Promise.all(Object.keys(e2e.keysFile.keys).map(apiList));
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
});
