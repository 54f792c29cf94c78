// Which of the element's properties mean new data or new words, and how the words of `strings` are read.
import type { Strings } from './i18n.ts';

/** Changing any of these means other data: fetch again, behind the skeleton. */
export const SOURCE_PROPERTIES = [
  'apiKey',
  'apiBase',
  'src',
  'keysUrl',
  'facility',
  'minVersion',
  'availableOnly',
  'sort',
] as const;
/** Changing any of these means other words: translate again. */
export const LANGUAGE_PROPERTIES = ['locale', 'strings', 'rentLabel'] as const;

/**
 * The words `strings` gives: an object, or its JSON as text (the attribute, and the property as React and Vue set it
 * from `strings='{...}'`); malformed JSON is ignored rather than thrown into the page.
 */
export function stringsOf(given: Partial<Strings> | string | null | undefined): Partial<Strings> | undefined {
  if (typeof given !== 'string') return given ?? undefined;
  try {
    const parsed: unknown = JSON.parse(given);
    return parsed && typeof parsed === 'object' ? (parsed as Partial<Strings>) : undefined;
  } catch {
    return undefined;
  }
}
