// Accept-Language read by q-value, and a facility's own language from its country, else its currency.
import { expect, it } from 'vitest';
import { acceptedLanguage, pageLanguage, placeLanguage, refusedLanguages } from './languages.ts';

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

it("speaks the facility's language to a visitor who asks for none of ours, unless the visitor refused it (q=0)", () => {
  expect(refusedLanguages('pl;q=0')).toEqual(['pl']);
  expect(refusedLanguages('fr, de-AT;q=0.0, PL;q=0')).toEqual(['pl', 'de']);
  for (const header of [undefined, 'fr', 'pl;q=0.5', 'de;q=abc', 'pl;q=0.05'])
    expect(refusedLanguages(header)).toEqual([]);
  expect(pageLanguage(undefined, [], 'pl')).toBe('pl');
  expect(pageLanguage(undefined, ['pl'], 'pl')).toBe('en');
  expect(pageLanguage(undefined, ['en', 'pl'], 'pl')).toBe('de');
  expect(pageLanguage(undefined, ['en', 'pl', 'de'], 'pl')).toBe('pl');
  expect(pageLanguage('de', [], 'pl')).toBe('de');
});
