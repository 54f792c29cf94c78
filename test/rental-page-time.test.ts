// A kept rental page changes at the instant a promotion starts or ends, on a running server, without an import: the
// page cache keeps each page only until its listing's next promotion change (controlled clock).
import { describe, expect, it } from 'vitest';
import { parseImport } from '../server/domain/import.ts';
import { promotion, richJson } from './helpers/rental-info.ts';
import { useDemoHandler } from './helpers/setup.ts';
import { call } from './helpers/http.ts';

const STARTS = '2026-06-10T00:00:00Z';
const ENDS = '2026-06-20T00:00:00Z';
let now = Date.parse(STARTS) - 60_000;

const data = richJson([
  promotion({ code: 'ONE', title: 'First month 1 zł', kind: 'fixed_price', value: 100, ends_at: null }),
  promotion({ code: 'HALF3', title: '50 % off 3 months', to_period: 3, starts_at: STARTS, ends_at: ENDS }),
]);
const CODE = data.facilities.find((f) => f.id === 'wro-1')!.listings[0].code as string;
const demo = useDemoHandler({ data: parseImport(JSON.stringify(data), 'rich.json'), handler: { clock: () => now } });

/** The promotions the page lists, and whether the store was read to make it. */
async function shown(): Promise<{ promotions: string[]; read: boolean }> {
  const reads = demo.handler.pages.reads;
  const r = await call(demo.handler, `/rent/wro-1/${CODE}`);
  expect(r.status).toBe(200);
  const promotions = [...r.text.matchAll(/<li data-promotion="([^"]+)">/g)].map((m) => m[1]!);
  return { promotions, read: demo.handler.pages.reads > reads };
}

describe('a promotion that starts and ends', () => {
  it('is on the page from its start to its end, and the page is kept between the changes', async () => {
    expect(await shown()).toEqual({ promotions: ['ONE'], read: true });
    now = Date.parse(STARTS) - 1;
    expect(await shown()).toEqual({ promotions: ['ONE'], read: false });
    now = Date.parse(STARTS);
    expect(await shown()).toEqual({ promotions: ['ONE', 'HALF3'], read: true });
    now = Date.parse(ENDS) - 1;
    expect(await shown()).toEqual({ promotions: ['ONE', 'HALF3'], read: false });
    now = Date.parse(ENDS);
    expect(await shown()).toEqual({ promotions: ['ONE'], read: true });
    now = Date.parse(ENDS) + 365 * 86_400_000; // no change ahead: kept as long as the data stays
    expect(await shown()).toEqual({ promotions: ['ONE'], read: false });
  });
});
