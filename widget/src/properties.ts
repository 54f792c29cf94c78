// How the element's one property table (`StorageListings.properties`) becomes typed fields, the converter it uses,
// and which properties mean new data or new words.
import type { PropertyDeclaration } from 'lit';
import type { Strings } from './i18n.ts';

declare const VALUE: unique symbol;

/** A declaration whose value has type T, for a type the attribute's `type` cannot say (nothing at run time). */
export type Typed<T> = PropertyDeclaration & { readonly [VALUE]: T };

/** A table entry: Lit's declaration plus the property's default, set by the constructor. */
type Entry = PropertyDeclaration & { default?: unknown };

/** What an attribute becomes through the entry's `type` or `converter` (Lit's default: the string as it is). */
type Read<D> = D extends { type: BooleanConstructor }
  ? boolean
  : D extends { type: NumberConstructor }
    ? number
    : D extends { converter: { fromAttribute(value: string | null): infer V } }
      ? V
      : string;

/** The type of an entry's value: its `Typed` type, else its default's, else what it reads or undefined. */
type ValueOf<D> = D extends { readonly [VALUE]: infer V }
  ? V
  : D extends { default: infer V }
    ? V
    : Read<D> | undefined;

/** The public fields of a property table: each entry but internal state, with the type of its value. */
export type FieldsOf<T extends Record<string, Entry>> = {
  -readonly [K in keyof T as T[K] extends { state: boolean } ? never : K]: ValueOf<T[K]>;
};

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
