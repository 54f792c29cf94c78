// Words for the contract's vocabularies and days in English, Polish and German, for pages and structured data (the
// features' and amenities' words are the widget's too: shared/rental-words.ts).
import type { Amenity, Day, Feature, UnitType } from './listing.ts';
import { LANGUAGES, type Language } from './languages.ts';
import { AMENITY_WORDS, FEATURE_WORDS } from './rental-words.ts';

type Words<W extends string> = Record<W, [en: string, pl: string, de: string]>;

const UNIT_TYPES: Words<UnitType> = {
  locker: ['Locker', 'Skrytka', 'Schließfach'],
  small: ['Small unit', 'Mały boks', 'Kleine Einheit'],
  medium: ['Medium unit', 'Średni boks', 'Mittlere Einheit'],
  large: ['Large unit', 'Duży boks', 'Große Einheit'],
  xl: ['Extra large unit', 'Bardzo duży boks', 'Sehr große Einheit'],
  parking: ['Parking space', 'Miejsce parkingowe', 'Stellplatz'],
  container: ['Container', 'Kontener', 'Container'],
  wine: ['Wine storage', 'Przechowalnia wina', 'Weinlager'],
  archive: ['Archive storage', 'Archiwum', 'Archivraum'],
};

/** One language's column of a vocabulary. */
function column<W extends string>(words: Words<W>, language: Language): Record<W, string> {
  const i = LANGUAGES.indexOf(language);
  return Object.fromEntries(Object.entries<string[]>(words).map(([w, texts]) => [w, texts[i]])) as Record<W, string>;
}

/** The vocabularies' words in one language. */
export interface Labels {
  features: Record<Feature, string>;
  amenities: Record<Amenity, string>;
  unitTypes: Record<UnitType, string>;
}

const LABELS = Object.fromEntries(
  LANGUAGES.map((l) => [
    l,
    { features: column(FEATURE_WORDS, l), amenities: column(AMENITY_WORDS, l), unitTypes: column(UNIT_TYPES, l) },
  ]),
) as Record<Language, Labels>;

export const labelsIn = (language: Language): Labels => LABELS[language];

export const FEATURE_LABELS = LABELS.en.features;
export const AMENITY_LABELS = LABELS.en.amenities;
export const UNIT_TYPE_LABELS = LABELS.en.unitTypes;

/** Days as schema.org names them (DayOfWeek), which are also their English names. */
export const DAY_NAMES: Record<Day, string> = {
  mo: 'Monday',
  tu: 'Tuesday',
  we: 'Wednesday',
  th: 'Thursday',
  fr: 'Friday',
  sa: 'Saturday',
  su: 'Sunday',
};
