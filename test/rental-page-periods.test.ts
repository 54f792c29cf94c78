// The rental page's words for billing periods, said in the listing's own period as the widget's dialog says them: the
// move-in line of the first period (shared/rental-words.ts: "First 3 months", with the Polish and German forms that
// agree with the count) and the schedule's runs, counted in the period's unit ("Months 1–6" for periods 1–2 of P3M).
import { describe, expect, it } from 'vitest';
import { parseImport } from '../server/domain/import.ts';
import { call } from './helpers/http.ts';
import { plainJson, promotion } from './helpers/rental-info.ts';
import { useDemoHandler } from './helpers/setup.ts';

const data = plainJson();
const wro = data.facilities.find((f) => f.id === 'wro-1')!;
const codes = wro.listings.slice(0, 5).map((l: { code: string }) => l.code) as string[];
const [monthly, quarterly, fortnightly, halfYearly, mixed] = codes;
wro.listings[1].price_period = 'P3M';
wro.listings[2].price_period = 'P14D';
wro.listings[3].price_period = 'P1Y6M';
wro.listings[4].price_period = 'P1M2W';
for (const l of wro.listings.slice(1, 5)) l.promotions = [promotion({ from_period: 1, to_period: 2, ends_at: null })];
const demo = useDemoHandler({ data: parseImport(JSON.stringify(data), 'periods.json') });

/** The label of the page's first-period move-in row, in a language. */
async function firstPeriodRow(code: string, language: string): Promise<string | undefined> {
  const r = await call(demo.handler, `/rent/wro-1/${code}`, { headers: { 'accept-language': language } });
  expect(r.status).toBe(200);
  return /<tr data-part="first_period"><th scope="row">([^<]*)<\/th>/.exec(r.text)?.[1];
}

describe('the move-in row of the first period', () => {
  it.each([
    [monthly, 'en', 'First month'],
    [quarterly, 'en', 'First 3 months'],
    [fortnightly, 'en', 'First 14 days'],
    [monthly, 'pl', 'Pierwszy miesiąc'],
    [quarterly, 'pl', 'Pierwsze 3 miesiące'],
    [monthly, 'de', 'Miete, 1. Monat'],
    [fortnightly, 'de', 'Miete, erste 14 Tage'],
  ])('of %s in %s reads %s', async (code, language, label) => {
    expect(await firstPeriodRow(code!, language)).toBe(label);
  });
});

/** The labels of the page's schedule rows, in a language. */
async function scheduleRows(code: string, language: string): Promise<string[]> {
  const r = await call(demo.handler, `/rent/wro-1/${code}`, { headers: { 'accept-language': language } });
  expect(r.status).toBe(200);
  const table = /data-field="schedule">([\s\S]*?)<\/table>/.exec(r.text)?.[1] ?? '';
  return [...table.matchAll(/<th scope="row">([^<]*)<\/th>/g)].map((m) => m[1]!);
}

describe("the schedule's runs of periods", () => {
  it.each([
    [quarterly, 'en', ['Months 1–6', 'From month 7']],
    [quarterly, 'pl', ['1.–6. miesiąc', '7. miesiąc i kolejne']],
    [quarterly, 'de', ['1.–6. Monat', 'Ab 7. Monat']],
    [fortnightly, 'en', ['Days 1–28', 'From day 29']],
    [halfYearly, 'en', ['Months 1–36', 'From month 37']],
    [mixed, 'en', ['Periods 1–2', 'From period 3']],
    [mixed, 'de', ['1.–2. Zeitraum', 'Ab 3. Zeitraum']],
  ])('of %s in %s read %j', async (code, language, labels) => {
    expect(await scheduleRows(code!, language)).toEqual(labels);
  });

  it('are said in those words in the promotion line too', async () => {
    const r = await call(demo.handler, `/rent/wro-1/${quarterly}`, { headers: { 'accept-language': 'en' } });
    expect(r.text).toMatch(/50% off your first month<\/[a-z]+>: [^<]* for months 1–6/);
  });
});
