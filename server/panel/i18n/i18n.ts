// The panel's language: the browser's first of English, Polish and German (Accept-Language), English otherwise.
import { de } from './de.ts';
import { en, type Messages } from './en.ts';
import { pl } from './pl.ts';

export type Lang = 'en' | 'pl' | 'de';
export type { Messages };

export const MESSAGES: Record<Lang, Messages> = { en, pl, de };

/** Own keys only: a tag such as `constructor` or `__proto__` names no language (`in` would find Object's). */
const isLang = (tag: string): tag is Lang => Object.hasOwn(MESSAGES, tag);

export function langOf(acceptLanguage: string | undefined): Lang {
  const ranked = (acceptLanguage ?? '')
    .split(',')
    .map((part) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = Number(
        params
          .find((p) => p.trim().startsWith('q='))
          ?.trim()
          .slice(2) ?? 1,
      );
      return { lang: tag.toLowerCase().split('-')[0]!, q: Number.isFinite(q) ? q : 0 };
    })
    .filter((l) => l.q > 0)
    .sort((a, b) => b.q - a.q);
  return ranked.find((l): l is { lang: Lang; q: number } => isLang(l.lang))?.lang ?? 'en';
}

/** The language and its texts, which every page takes. */
export interface Texts {
  lang: Lang;
  t: Messages;
}

export const textsFor = (acceptLanguage: string | undefined): Texts => {
  const lang = langOf(acceptLanguage);
  return { lang, t: MESSAGES[lang] };
};
