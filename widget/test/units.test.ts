// The pure helpers, in the browser's own Intl: money, durations in words, plurals, locale choice, URLs, arrangement.
import { formatDuration, formatMoney, formatPeriod, parseDuration } from '../../shared/format.ts';
import type { Summary } from '../../shared/listing.ts';
import { arrange } from '../src/arrange.ts';
import { pickLocale, translator, type Plural, type Strings } from '../src/i18n.ts';
import { safeUrl } from '../src/safe-url.ts';
import { deepEqual, equal } from './assert.ts';
import { describe, it } from './helpers.ts';

describe('format', () => {
  it('formats minor units by the currency exponent', () => {
    equal(
      formatMoney(32900, 'PLN', 'pl-PL'),
      new Intl.NumberFormat('pl-PL', { style: 'currency', currency: 'PLN' }).format(329),
    );
    equal(
      formatMoney(1200, 'JPY', 'en'),
      new Intl.NumberFormat('en', { style: 'currency', currency: 'JPY' }).format(1200),
    );
    equal(formatMoney(500, 'nope', 'en'), '5.00 nope', 'an invalid currency code never throws');
    // ISO 4217 minor units, even where the locale writes the currency without decimals: never rounded
    equal(
      formatMoney(1500050, 'HUF', 'en'),
      new Intl.NumberFormat('en', { style: 'currency', currency: 'HUF', minimumFractionDigits: 2 }).format(15000.5),
    );
    equal(
      formatMoney(1500000, 'HUF', 'en'),
      new Intl.NumberFormat('en', { style: 'currency', currency: 'HUF' }).format(15000),
    );
  });

  it('writes ISO 8601 durations in words per locale', () => {
    equal(formatDuration('P14D', 'en'), '14 days');
    equal(formatDuration('P1M', 'en'), '1 month');
    equal(formatDuration('P1Y2M', 'en'), '1 year, 2 months');
    equal(formatDuration('P1W', 'de-DE'), '1 Woche');
    equal(formatDuration('P5M', 'pl-PL'), '5 miesięcy');
    equal(formatDuration('PT1H', 'en'), 'PT1H', 'unsupported durations stay as written');
    equal(parseDuration('P'), null);
  });

  it('writes a billing period as it follows a price', () => {
    equal(formatPeriod('P1M', 'en'), 'month');
    equal(formatPeriod('P1M', 'pl-PL'), 'miesiąc');
    equal(formatPeriod('P1W', 'de-DE'), 'Woche');
    equal(formatPeriod('P3M', 'en'), '3 months');
  });
});

describe('i18n', () => {
  it('picks Polish plural forms', () => {
    const t = translator('pl-PL', undefined);
    equal(t('unitsLeft', { n: 2 }, 2), 'Zostały 2 jednostki');
    equal(t('unitsLeft', { n: 5 }, 5), 'Zostało 5 jednostek');
    equal(t('unitsLeft', { n: 22 }, 22), 'Zostały 22 jednostki');
  });

  it('falls back to English for other languages, and takes overrides of any shape without throwing', () => {
    equal(translator('fr-FR', undefined)('rent'), 'Rent');
    const t = translator('en', { rent: 'Book', unitsLeft: { other: '{n} free' }, soldOut: 42 as unknown as string });
    equal(t('rent'), 'Book');
    equal(t('unitsLeft', { n: 4 }, 4), '4 free');
    equal(t('soldOut'), 'Sold out', 'a number is not text');
  });

  it('keeps the built-in text for an override that is neither text nor an object of text forms', () => {
    const builtIn = translator('en', undefined);
    const given = '{"rent":{"one":5},"details":7,"close":false,"newTab":["x"],"loading":null,"empty":{}}';
    const t = translator('en', JSON.parse(given) as Partial<Strings>);
    for (const key of ['rent', 'details', 'close', 'newTab', 'loading', 'empty'] as const) {
      equal(t(key), builtIn(key), key);
      equal(t(key, {}, 1), builtIn(key), `${key}, counting one`);
    }
    const forms = translator('en', JSON.parse('{"rent":{"one":"Book it"}}') as Partial<Strings>);
    equal(forms('rent', {}, 1), 'Book it', 'an object of text forms for a plain text is plural forms');
    equal(forms('rent', {}, 2), 'Rent', 'the form it does not give is the built-in text');
  });

  it('keeps the built-in plural forms an override does not give, and those whose override is not text', () => {
    const one = translator('pl', { unitsLeft: { one: '{n} wolna' } as Plural });
    equal(one('unitsLeft', { n: 1 }, 1), '1 wolna');
    equal(one('unitsLeft', { n: 22 }, 22), 'Zostały 22 jednostki');
    equal(one('unitsLeft', { n: 5 }, 5), 'Zostało 5 jednostek');
    const t = translator('pl', { unitsLeft: { one: '{n} wolna', other: '{n} wolnych' } });
    equal(t('unitsLeft', { n: 1 }, 1), '1 wolna');
    equal(t('unitsLeft', { n: 22 }, 22), 'Zostały 22 jednostki', '"few", which the override does not give');
    equal(t('unitsLeft', { n: 5 }, 5), '5 wolnych', '"many": neither gives it, the override\'s "other" stands in');
    const odd = translator('pl', { unitsLeft: { one: 5, few: null } as unknown as Plural });
    equal(odd('unitsLeft', { n: 1 }, 1), 'Została 1 jednostka');
    equal(odd('unitsLeft', { n: 22 }, 22), 'Zostały 22 jednostki');
    const words = translator('en', { featureNames: { drive_up: 7 } } as unknown as Partial<Strings>);
    equal(words.word('featureNames', 'drive_up'), translator('en', undefined).word('featureNames', 'drive_up'));
  });

  it('chooses the locale attribute, then the page language, ignoring invalid tags', () => {
    equal(pickLocale('de-AT'), 'de-AT');
    const before = document.documentElement.lang;
    document.documentElement.lang = 'pl';
    try {
      equal(pickLocale(undefined), 'pl');
      equal(pickLocale('not a locale!'), 'pl');
    } finally {
      document.documentElement.lang = before;
    }
  });
});

describe('safeUrl', () => {
  it('keeps http(s) URLs and drops every other scheme', () => {
    equal(safeUrl('https://img.example.com/a.jpg', 'https://x.test/'), 'https://img.example.com/a.jpg');
    equal(safeUrl('/rent/a', 'https://x.test/api/'), 'https://x.test/rent/a');
    for (const bad of [
      'javascript:alert(1)',
      ' JAVASCRIPT:alert(1)',
      'data:text/html,x',
      'vbscript:x',
      'blob:https://x/y',
      '',
      null,
    ]) {
      equal(safeUrl(bad, 'https://x.test/'), null, String(bad));
    }
  });
});

describe('arrange', () => {
  const listing = (code: string, gross: number, area: number, free: number) =>
    ({ id: code, code, price: { gross }, area_m2: area, free_units: free }) as unknown as Summary;
  const all = [listing('B-10', 300, 5, 0), listing('B-2', 100, 9, 2), listing('A-1', 300, 1, 1)];

  it('filters, sorts stably and limits', () => {
    const codes = (list: Summary[]) => list.map((l) => l.code);
    deepEqual(codes(arrange(all, { availableOnly: false, sort: 'code', limit: undefined })), ['A-1', 'B-2', 'B-10']);
    deepEqual(codes(arrange(all, { availableOnly: false, sort: '-price', limit: undefined })), ['B-10', 'A-1', 'B-2']);
    deepEqual(codes(arrange(all, { availableOnly: true, sort: 'area', limit: 1 })), ['A-1']);
    deepEqual(codes(arrange(all, { availableOnly: false, sort: 'bogus', limit: 0 })), ['B-10', 'B-2', 'A-1']);
  });
});
