// The panel's language: the browser's first of English, Polish and German (Accept-Language), English otherwise.
import { de } from './de.ts';
import { en, type Messages } from './en.ts';
import { pl } from './pl.ts';
import { acceptedLanguage, type Language } from '../../../shared/languages.ts';

export type Lang = Language;
export type { Messages };

export const MESSAGES: Record<Lang, Messages> = { en, pl, de };

export const langOf = (acceptLanguage: string | undefined): Lang => acceptedLanguage(acceptLanguage) ?? 'en';

/** The language and its texts, which every page takes. */
export interface Texts {
  lang: Lang;
  t: Messages;
}

export const textsFor = (acceptLanguage: string | undefined): Texts => {
  const lang = langOf(acceptLanguage);
  return { lang, t: MESSAGES[lang] };
};
