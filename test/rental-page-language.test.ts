// The rental page speaks the visitor's language (Accept-Language: en, pl, de, q-values honoured), else the
// facility's, whole in that one language, with <html lang>, Vary: Accept-Language, and a kept page per language
// within the page cache's one byte budget.
import { describe, expect, it } from 'vitest';
import { applyImport } from '../server/store/facilities.ts';
import { parseImport } from '../server/domain/import.ts';
import { PageCache } from '../server/http/views/page-cache.ts';
import { RentalPages } from '../server/http/pages/rental-page.ts';
import { speechIn } from '../server/http/pages/rental-texts.ts';
import { LANGUAGES, type Language } from '../shared/languages.ts';
import { demoJson } from './helpers/fixture.ts';
import { useDemoServer } from './helpers/setup.ts';
import { call } from './helpers/http.ts';

/** A facility in Great Britain: English is its language. */
function britishFacility() {
  const wro = demoJson().facilities.find((f) => f.id === 'wro-1');
  return {
    ...wro,
    id: 'lon-1',
    name: 'Thames Storage',
    currency: 'GBP',
    address: { street: '1 River Road', postal_code: 'SE1 9AA', city: 'London', region: null, country: 'GB' },
  };
}

const demo = useDemoServer({
  prepare: (db) => applyImport(db, parseImport(JSON.stringify({ facilities: [britishFacility()] }), 'gb.json')),
});
const get = (path: string, acceptLanguage?: string) =>
  call(demo.app.url, path, { headers: acceptLanguage === undefined ? {} : { 'accept-language': acceptLanguage } });

/** The page's own words (labels and headings), for the check that none of another language's is on it. */
const labelsOf = (html: string) => [...html.matchAll(/<(?:dt|h2|caption)>([^<]+)</g)].map((m) => m[1]!.trim());

/** The page's language as it declares it. */
const langOf = (html: string) => /<html lang="([^"]+)">/.exec(html)?.[1];

function expectWhole(html: string, language: Language) {
  expect(langOf(html)).toBe(language);
  const own = new Set(Object.values(speechIn(language).t).filter((v): v is string => typeof v === 'string'));
  const others = LANGUAGES.filter((l) => l !== language).flatMap((l) =>
    Object.values(speechIn(l).t).filter((v): v is string => typeof v === 'string' && !own.has(v) && v.length > 3),
  );
  const labels = labelsOf(html);
  expect(labels.length).toBeGreaterThan(5);
  for (const label of labels) expect(others, `"${label}" on the ${language} page`).not.toContain(label);
  expect(html).toContain(`<dt>${speechIn(language).t.area}</dt>`);
  expect(html).toContain(`<dt>${speechIn(language).t.deposit}</dt>`);
}

describe('the rental page in the visitor language', () => {
  it.each([
    ['en', 'en', 'PLN\u00a050.00 at move-out', 'per month'],
    ['pl', 'pl', '50,00\u00a0zł przy wyprowadzce', 'za miesiąc'],
    ['de', 'de', '50,00\u00a0PLN beim Auszug', 'pro Monat'],
  ] as const)(
    'Accept-Language %s: the page in %s, money and periods as it writes them',
    async (asked, language, money, per) => {
      const r = await get('/rent/wro-1/M-07', asked);
      expect(r.status).toBe(200);
      expect(r.headers['vary']).toBe('Accept-Language, Accept-Encoding');
      expectWhole(r.text, language);
      expect(r.text).toContain(`<dd data-fee="clean">${money}</dd>`);
      expect(r.text).toContain(per);
    },
  );

  it('writes the VAT rate as numbers are written in the language: 8.1% in English, 8,1 % in German', async () => {
    const rate = (html: string) => /data-field="vat_rate">([^<]+)</.exec(html)?.[1];
    expect(rate((await get('/rent/zrh-1/A-1', 'en')).text)).toBe('8.1%');
    expect(rate((await get('/rent/zrh-1/A-1', 'de')).text)).toBe('8,1\u00a0%');
    expect(rate((await get('/rent/wro-1/M-07', 'pl')).text)).toBe('23%');
  });

  it('honours q-values and region subtags, and skips languages it does not speak', async () => {
    const cases: [string, Language][] = [
      ['en;q=0.3, de;q=0.8, pl;q=0.5', 'de'],
      ['fr-CH, fr;q=0.9, pl;q=0.7, en;q=0.5', 'pl'],
      ['de-AT', 'de'],
      ['PL-pl,en;q=0.9', 'pl'],
      ['pl;q=0, en', 'en'],
    ];
    for (const [header, language] of cases)
      expect(langOf((await get('/rent/ber-1/S-1', header)).text), header).toBe(language);
  });

  it("answers in the facility's language when the visitor asks for none it speaks, or for nothing", async () => {
    for (const header of [undefined, 'fr', '*', 'fr-FR,fr;q=0.9'])
      for (const [path, language] of [
        ['/rent/wro-1/M-07', 'pl'],
        ['/rent/ber-1/S-1', 'de'],
        ['/rent/lon-1/M-07', 'en'],
      ] as const) {
        const r = await get(path, header);
        expect(r.status, `${path} ${header}`).toBe(200);
        expectWhole(r.text, language);
      }
  });

  it("answers in another of its languages when the visitor refuses the facility's with q=0", async () => {
    const cases: [string, string, Language][] = [
      ['/rent/wro-1/M-07', 'pl;q=0', 'en'],
      ['/rent/ber-1/S-1', 'fr, de;q=0', 'en'],
      ['/rent/ber-1/S-1', 'de;q=0, en;q=0', 'pl'],
      ['/rent/wro-1/M-07', 'fr', 'pl'], // kept apart from the refusals' pages
    ];
    for (const [path, header, language] of cases) {
      const r = await get(path, header);
      expect(r.status, `${path} ${header}`).toBe(200);
      expectWhole(r.text, language);
    }
  });

  it('reads a malformed Accept-Language as none: the facility language, never a 4xx or 5xx', async () => {
    const malformed = [
      ';;;',
      ',,,',
      'de;q=',
      'de;q=abc',
      'de;q=2',
      'q=1',
      ';q=1;de',
      '-',
      'x'.repeat(4000),
      'de;q=0.5;q=x,,;',
      '__proto__',
      'constructor, toString;q=0.9',
    ];
    for (const header of malformed) {
      const r = await get('/rent/wro-1/M-07', header);
      expect(r.status, header).toBe(200);
      expect(['pl', 'de'], header).toContain(langOf(r.text));
    }
    expect(langOf((await get('/rent/wro-1/M-07', 'de;q=abc')).text)).toBe('pl');
    expect(langOf((await get('/rent/wro-1/M-07', 'de;q=2')).text)).toBe('pl');
  });
});

it('says an unknown unit is not found in the language asked for, else in English (no facility to go by)', async () => {
  for (const [header, language] of [
    ['de', 'de'],
    ['pl-PL,pl;q=0.9', 'pl'],
    ['fr', 'en'],
    [undefined, 'en'],
    [';;', 'en'],
  ] as const)
    for (const path of ['/rent/wro-1/NOPE', '/rent/nope/M-07', '/go/wro-1/NOPE']) {
      const r = await get(path, header);
      expect(r.status, `${path} ${header}`).toBe(404);
      expect(langOf(r.text)).toBe(language);
      expect(r.text).toContain(`<h1>${speechIn(language).t.notFound}</h1>`);
    }
});

/** A request for a page in `language` (none: no Accept-Language). */
const requestIn = (language: string | undefined) => ({
  method: 'GET',
  url: '/rent/',
  headers: { 'accept-language': language },
  remoteAddress: '127.0.0.1',
});

describe('the page cache with three languages', () => {
  it('keeps a page per language, serves each again without a read, and holds its one byte budget', () => {
    const budget = 48 * 1024;
    const pages = new PageCache(demo.db, 'http://127.0.0.1:8787', budget);
    const codes = demoJson()
      .facilities.find((f) => f.id === 'wro-1')!
      .listings.filter((l: { active: boolean }) => l.active)
      .map((l: { code: string }) => l.code as string);
    const rental = new RentalPages(pages);
    const page = (code: string, language: string) => rental.page(requestIn(language), `/rent/wro-1/${code}`);
    const first = page(codes[0]!, 'de');
    const reads = pages.reads;
    expect(page(codes[0]!, 'de').body).toBe(first.body); // the kept bytes themselves
    expect(page(codes[0]!, 'de-DE,de;q=0.9,en;q=0.8').body).toBe(first.body); // a browser's header, as the bench sends
    expect(pages.reads).toBe(reads);
    const byLanguage = LANGUAGES.map((l) => page(codes[0]!, l).body!.toString());
    expect(new Set(byLanguage).size).toBe(3);
    for (let round = 0; round < 3; round++)
      for (const code of codes)
        for (const language of [...LANGUAGES, 'fr']) {
          expect(page(code, language).status).toBe(200);
          expect(pages.held.bytes).toBeLessThanOrEqual(budget);
        }
    expect(pages.held.pages, 'the budget holds fewer pages than were asked for').toBeLessThan(codes.length * 4);
    expect(pages.held.bytes).toBeGreaterThan(budget / 2);
  });

  it('reads an unknown code once, whatever the language asked', () => {
    const pages = new PageCache(demo.db, 'http://127.0.0.1:8787');
    const rental = new RentalPages(pages);
    for (const language of [...LANGUAGES, undefined])
      expect(rental.page(requestIn(language), '/rent/wro-1/NOPE').status).toBe(404);
    expect(pages.reads).toBe(1);
  });
});
