// The languages visitor-facing pages speak (English, Polish, German), the one a browser asks for by Accept-Language,
// and a facility's own language, the default when the browser asks for none of them.

export const LANGUAGES = ['en', 'pl', 'de'] as const;
export type Language = (typeof LANGUAGES)[number];

/** Own values only: a tag such as `constructor` names no language. */
export const isLanguage = (tag: string): tag is Language => (LANGUAGES as readonly string[]).includes(tag);

/**
 * The first language of an Accept-Language header, by q-value (ties in the header's order), that we speak; undefined
 * for no header, none we speak or a header that cannot be read (a bad q-value counts as q=0, never as an error).
 */
export function acceptedLanguage(header: string | undefined): Language | undefined {
  // One pass, keeping the best so far: a rental page asks this of every visitor's header.
  let best: Language | undefined;
  let bestQ = 0;
  for (const part of (header ?? '').split(',')) {
    const [tag = '', ...params] = part.split(';');
    const language = tag.trim().toLowerCase().split('-')[0]!;
    if (!isLanguage(language)) continue;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const weight = q === undefined ? 1 : Number(q.slice(2));
    if (weight > bestQ && weight <= 1) [best, bestQ] = [language, weight];
  }
  return best;
}

/** Our languages an Accept-Language header refuses outright (`q=0`), in the order of LANGUAGES. */
export function refusedLanguages(header: string | undefined): Language[] {
  if (!header?.includes('q=0')) return [];
  return LANGUAGES.filter((language) =>
    header.split(',').some((part) => {
      const [tag = '', ...params] = part.split(';');
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      return tag.trim().toLowerCase().split('-')[0] === language && q !== undefined && Number(q.slice(2)) === 0;
    }),
  );
}

/**
 * The language a page speaks: the one the visitor asks for; else the facility's (`place`) unless the visitor refused
 * it, then the first of ours it did not refuse (the facility's when it refused them all).
 */
export function pageLanguage(asked: Language | undefined, refused: readonly Language[], place: Language): Language {
  if (asked) return asked;
  if (!refused.includes(place)) return place;
  return LANGUAGES.find((language) => !refused.includes(language)) ?? place;
}

/** Countries whose first language we speak, by ISO 3166-1 code. */
const COUNTRY_LANGUAGES: Record<string, Language> = { PL: 'pl', DE: 'de', AT: 'de', CH: 'de', LI: 'de' };
/** Currencies of a country above, for a facility whose import gives no address. */
const CURRENCY_LANGUAGES: Record<string, Language> = { PLN: 'pl', CHF: 'de' };

/** A facility's language: its address's country's (English for a country whose language we do not speak), else its currency's. */
export function placeLanguage(country: string | null | undefined, currency: string): Language {
  if (country) return Object.hasOwn(COUNTRY_LANGUAGES, country) ? COUNTRY_LANGUAGES[country]! : 'en';
  return Object.hasOwn(CURRENCY_LANGUAGES, currency) ? CURRENCY_LANGUAGES[currency]! : 'en';
}
