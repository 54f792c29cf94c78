// Which of the element's properties mean new data or new words, and the converter of its `strings` attribute.
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

/** Reads the `strings` attribute as JSON; a malformed value is ignored rather than thrown into the page. */
export const jsonObject = {
  fromAttribute(value: string | null): Partial<Strings> | undefined {
    try {
      const parsed: unknown = JSON.parse(value ?? '');
      return parsed && typeof parsed === 'object' ? (parsed as Partial<Strings>) : undefined;
    } catch {
      return undefined;
    }
  },
};
