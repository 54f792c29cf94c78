// The rental pages' memos: refusals (a person's page and a program's Retry-After) and date formats, each made once
// and kept within a cap, the ones in use among them.
import { describe, expect, it } from 'vitest';
import { useDemoDb } from '../../../test/helpers/setup.ts';
import { PageCache } from '../views/page-cache.ts';
import { busyPage, notFoundPage, RentalPages } from './rental-page.ts';
import { DateFormats, speechIn } from './rental-texts.ts';
import { DEFAULT_DESCRIPTION } from './html.ts';
import { LANGUAGES } from '../../../shared/languages.ts';

const demo = useDemoDb();

it('says when to come back, in the page and in Retry-After, and never lets a page be stored', () => {
  const rental = new RentalPages(new PageCache(demo.db, 'http://127.0.0.1:8787'));
  const tooMany = rental.tooMany(7, undefined);
  expect(tooMany.status).toBe(429);
  expect(tooMany.headers).toMatchObject({ 'retry-after': '7', 'cache-control': 'no-store' });
  expect(String(tooMany.body)).toContain('try again in 7 seconds');
  expect(String(rental.tooMany(1, 'en').body)).toContain('try again in 1 second.');
  expect(rental.unavailable(5, undefined)).toMatchObject({ status: 503, headers: { 'retry-after': '5' } });
  expect(busyPage(undefined)).toMatchObject({ status: 503, headers: { 'retry-after': '1' } });
});

it("speaks the visitor's language on every refusal, with its plural forms, and English when it speaks none of ours", () => {
  const rental = new RentalPages(new PageCache(demo.db, 'http://127.0.0.1:8787'));
  const text = (a: { body: unknown }) => String(a.body);
  expect(text(rental.tooMany(3, 'pl-PL,pl;q=0.9'))).toContain('Spróbuj ponownie za 3 sekundy.');
  expect(text(rental.tooMany(5, 'pl'))).toContain('Spróbuj ponownie za 5 sekund.');
  expect(text(rental.tooMany(5, 'pl'))).toContain('<html lang="pl"');
  expect(text(rental.unavailable(5, 'de-CH'))).toContain('Bitte versuchen Sie es in 5 Sekunden erneut.');
  expect(text(rental.unavailable(5, 'de-CH'))).toContain('<title>Vorübergehend nicht verfügbar');
  expect(text(busyPage('de'))).toContain('Ausgelastet');
  expect(text(busyPage('pl'))).toContain('<html lang="pl"');
  expect(text(rental.tooMany(5, 'fr'))).toContain('try again in 5 seconds');
  // One page per language: a refusal in Polish is not served to the next visitor asking in German.
  expect(text(rental.tooMany(5, 'de'))).toContain('Zu viele Anfragen');
});

describe.each(LANGUAGES)('the 404, 429 and 503 pages in %s', (language) => {
  it('carry the description of that language, for search results and link previews', () => {
    const rental = new RentalPages(new PageCache(demo.db, 'http://127.0.0.1:8787'));
    const descriptionOf = (a: { body: unknown }) =>
      /<meta name="description" content="([^"]*)">/.exec(String(a.body))?.[1];
    const pages = [
      notFoundPage(language),
      rental.tooMany(5, language),
      rental.unavailable(5, language),
      busyPage(language),
    ];
    expect(pages.map((p) => p.status)).toEqual([404, 429, 503, 503]);
    expect(pages.map((p) => /<html lang="([a-z]+)"/.exec(String(p.body))?.[1])).toEqual(Array(4).fill(language));
    const description = speechIn(language).t.siteDescription;
    expect(pages.map(descriptionOf)).toEqual(Array(4).fill(description));
    if (language === 'en') expect(description).toBe(DEFAULT_DESCRIPTION);
    else expect(description).not.toBe(DEFAULT_DESCRIPTION);
  });
});

it('a flood of distinct waits keeps 64 refusal pages, the one in use among them', () => {
  const rental = new RentalPages(new PageCache(demo.db, 'http://127.0.0.1:8787'));
  const used = rental.tooMany(1, undefined).body;
  for (let s = 2; s < 300; s++) {
    rental.unavailable(s, 'de');
    if (s % 16 === 0) expect(rental.tooMany(1, undefined).body).toBe(used);
  }
  expect(rental.refusals.size).toBe(64);
  expect(rental.refusals.get('429 1 en')).toBe(used);
  expect(rental.refusals.get('503 2 de')).toBeUndefined();
});

it('writes a date on the facility clock, and keeps 2,048 formats, the one in use among them', () => {
  const dates = new DateFormats();
  const iso = '2026-01-31T23:30:00Z';
  expect(dates.dateIn(iso, 'en', null)).toBe('January 31, 2026');
  expect(dates.dateIn(iso, 'de', 'Europe/Berlin')).toBe('1. Februar 2026');
  // Zone names are case-insensitive: each spelling is a format of its own, so any number of them can be asked for.
  const zone = 'america/argentina/buenos_aires';
  const spelling = (i: number) => {
    let k = 0;
    return zone.replace(/[a-z]/g, (c) => ((i >> k++) & 1 ? c.toUpperCase() : c));
  };
  for (let i = 0; i < 3000; i++) {
    expect(dates.dateIn(iso, 'en', spelling(i))).toBe('January 31, 2026');
    if (i % 256 === 0) dates.dateIn(iso, 'de', 'Europe/Berlin');
  }
  expect(dates.kept.size).toBe(2048);
  expect(dates.kept.get(`en ${spelling(0)}`)).toBeUndefined();
  expect(dates.kept.get('de Europe/Berlin')).toBeDefined();
});
