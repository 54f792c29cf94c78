// The rental page's move-in line for the first period, said in the listing's own period as the widget's dialog says it
// (shared/rental-words.ts): "First 3 months", with the Polish and German forms that agree with the count.
import { describe, expect, it } from 'vitest';
import { parseImport } from '../server/domain/import.ts';
import { call } from './helpers/http.ts';
import { plainJson } from './helpers/rental-info.ts';
import { useDemoHandler } from './helpers/setup.ts';

const data = plainJson();
const wro = data.facilities.find((f) => f.id === 'wro-1')!;
const [monthly, quarterly, fortnightly] = wro.listings.slice(0, 3).map((l: { code: string }) => l.code) as string[];
wro.listings[1].price_period = 'P3M';
wro.listings[2].price_period = 'P14D';
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
