// Accept-Language read by q-value, and a facility's own language from its country, else its currency.
import { expect, it } from 'vitest';
import { acceptedLanguage, placeLanguage } from './languages.ts';

it('takes the highest-q language it speaks, ties in header order, region subtags and case ignored', () => {
  expect(acceptedLanguage('en;q=0.3, de;q=0.8, pl;q=0.5')).toBe('de');
  expect(acceptedLanguage('fr-CH, fr;q=0.9, pl;q=0.7, en;q=0.7')).toBe('pl');
  expect(acceptedLanguage('DE-at')).toBe('de');
  expect(acceptedLanguage('pl;q=0, en;q=0.1')).toBe('en');
});

it('finds none in no header, an unknown language, a wildcard or a header it cannot read', () => {
  for (const header of [undefined, '', 'fr', '*', ';;', 'de;q=abc', 'de;q=2', 'de;q=-1', '__proto__', 'constructor'])
    expect(acceptedLanguage(header), String(header)).toBeUndefined();
});

it("gives a facility its country's language (English for another country), else its currency's", () => {
  expect(placeLanguage('PL', 'EUR')).toBe('pl');
  expect(placeLanguage('AT', 'EUR')).toBe('de');
  expect(placeLanguage('GB', 'PLN')).toBe('en');
  expect(placeLanguage(null, 'CHF')).toBe('de');
  expect(placeLanguage('FR', 'EUR')).toBe('en');
  expect(placeLanguage(undefined, 'toString')).toBe('en');
});
