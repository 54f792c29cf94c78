// Every string the widget shows, in English, Polish and German; the locale picks a language, `strings` overrides any entry.
import type { Amenity, Feature, UnitType } from '../../shared/listing.ts';
import { isLanguage, LANGUAGES } from '../../shared/languages.ts';
import { AMENITY_WORDS, FEATURE_WORDS, FIRST_PERIOD_WORDS, SHARED_TEXTS } from '../../shared/rental-words.ts';

/** A string that depends on a count, by Intl.PluralRules category ("few" and "many" matter in Polish). */
export type Plural = { [K in Intl.LDMLPluralRule]?: string } & { other: string };

/** Every text the widget shows, by key; the `strings` property (or attribute) overrides any of them. */
export interface Strings {
  rent: string;
  details: string;
  close: string;
  newTab: string;
  loading: string;
  empty: string;
  withdrawn: string;
  shown: string | Plural;
  per: string;
  net: string;
  unitsLeft: string | Plural;
  lastUnit: string;
  soldOut: string;
  area: string;
  dimensions: string;
  description: string;
  minRental: string;
  notice: string;
  deposit: string;
  price: string;
  photos: string;
  noPhoto: string;
  photoOf: string;
  previous: string;
  next: string;
  retry: string;
  errorCode: string;
  errorAuth: string;
  errorOrigin: string;
  errorRate: string;
  errorNetwork: string;
  errorServer: string;
  errorConfig: string;
  errorAttribute: string;
  errorLoad: string;
  errorVerify: string;
  errorExpired: string;
  errorNotFound: string;
  instead: string;
  schedule: string;
  moveIn: string;
  firstPeriod: string | Plural;
  total: string;
  protection: string;
  protectionRequired: string;
  protectionOptional: string;
  door: string;
  floor: string;
  map: string;
  officeHours: string;
  accessHours: string;
  openNow: string;
  closedNow: string;
  /**
   * The contract's vocabularies by word; a word without an entry reads as itself ("ground_floor": "Ground floor"), so
   * English lists only those that read otherwise, and a partial override keeps the other words.
   */
  featureNames: Partial<Record<Feature, string>>;
  amenityNames: Partial<Record<Amenity, string>>;
  unitTypeNames: Partial<Record<UnitType, string>>;
}

/** The entries that are one word per vocabulary word. */
export type WordGroup = 'featureNames' | 'amenityNames' | 'unitTypeNames';

/**
 * Each string in English, Polish and German, side by side, so that a missing translation shows in review; those the
 * rental page says too come from the table both read.
 */
const STRINGS: { [K in TextKey]: [en: Strings[K], pl: Strings[K], de: Strings[K]] } = {
  ...SHARED_TEXTS,
  rent: ['Rent', 'Wynajmij', 'Mieten'],
  details: ['Details', 'Szczegóły', 'Details'],
  close: ['Close', 'Zamknij', 'Schließen'],
  newTab: ['(opens in a new tab)', '(otwiera się w nowej karcie)', '(öffnet in neuem Tab)'],
  loading: ['Loading units…', 'Wczytywanie jednostek…', 'Einheiten werden geladen…'],
  empty: ['No units available', 'Brak dostępnych jednostek', 'Keine Einheiten verfügbar'],
  withdrawn: ['No longer listed', 'Już niedostępne', 'Nicht mehr gelistet'],
  shown: [
    { one: '{n} unit shown', other: '{n} units shown' },
    { one: 'Pokazano {n} jednostkę', few: 'Pokazano {n} jednostki', other: 'Pokazano {n} jednostek' },
    { one: '{n} Einheit angezeigt', other: '{n} Einheiten angezeigt' },
  ],
  per: ['/ {period}', '/ {period}', '/ {period}'],
  net: ['{net} net + {vat} VAT', '{net} netto + {vat} VAT', '{net} netto zzgl. {vat} MwSt.'],
  unitsLeft: [
    { one: '{n} unit left', other: '{n} units left' },
    { one: 'Została {n} jednostka', few: 'Zostały {n} jednostki', other: 'Zostało {n} jednostek' },
    { one: 'Noch {n} Einheit frei', other: 'Noch {n} Einheiten frei' },
  ],
  lastUnit: ['Last unit', 'Ostatnia jednostka', 'Letzte Einheit'],
  dimensions: ['Dimensions (W × D × H)', 'Wymiary (szer. × gł. × wys.)', 'Maße (B × T × H)'],
  description: ['Description', 'Opis', 'Beschreibung'],
  price: ['Price', 'Cena', 'Preis'],
  photos: ['Photos', 'Zdjęcia', 'Fotos'],
  noPhoto: ['No photo yet', 'Brak zdjęcia', 'Noch kein Foto'],
  photoOf: ['Photo {i} of {n}', 'Zdjęcie {i} z {n}', 'Foto {i} von {n}'],
  previous: ['Previous photo', 'Poprzednie zdjęcie', 'Vorheriges Foto'],
  next: ['Next photo', 'Następne zdjęcie', 'Nächstes Foto'],
  retry: ['Retry', 'Spróbuj ponownie', 'Erneut versuchen'],
  errorCode: ['Error code: {code}', 'Kod błędu: {code}', 'Fehlercode: {code}'],
  errorAuth: [
    'Units cannot be shown: the API key is missing, invalid or revoked. Site owner: check the api-key attribute.',
    'Nie można wyświetlić jednostek: brak klucza API albo klucz jest nieprawidłowy lub unieważniony. Właściciel strony: sprawdź atrybut api-key.',
    'Einheiten können nicht angezeigt werden: Der API-Schlüssel fehlt, ist ungültig oder wurde widerrufen. Für den Seitenbetreiber: Attribut api-key prüfen.',
  ],
  errorOrigin: [
    'Units cannot be shown: the API key is not allowed on this site. Site owner: check the origins the key allows.',
    'Nie można wyświetlić jednostek: klucz API nie jest dozwolony na tej stronie. Właściciel strony: sprawdź źródła dozwolone dla klucza.',
    'Einheiten können nicht angezeigt werden: Der API-Schlüssel ist für diese Website nicht zugelassen. Für den Seitenbetreiber: die zugelassenen Origins des Schlüssels prüfen.',
  ],
  errorRate: [
    'Too many requests. Please try again in {s} s.',
    'Zbyt wiele zapytań. Spróbuj ponownie za {s} s.',
    'Zu viele Anfragen. Bitte in {s} s erneut versuchen.',
  ],
  errorNetwork: [
    'Units could not be loaded. Check your connection and try again.',
    'Nie udało się wczytać jednostek. Sprawdź połączenie i spróbuj ponownie.',
    'Einheiten konnten nicht geladen werden. Bitte Verbindung prüfen und erneut versuchen.',
  ],
  errorServer: [
    'Units cannot be loaded right now. Please try again.',
    'Nie można teraz wczytać jednostek. Spróbuj ponownie.',
    'Einheiten können gerade nicht geladen werden. Bitte erneut versuchen.',
  ],
  errorConfig: [
    'This widget is not set up: give it api-key and api-base, or src.',
    'Widżet nie jest skonfigurowany: podaj api-key i api-base albo src.',
    'Das Widget ist nicht eingerichtet: api-key und api-base oder src angeben.',
  ],
  errorAttribute: [
    'This widget is not set up: its {name} attribute is not valid.',
    'Widżet nie jest skonfigurowany: atrybut {name} jest nieprawidłowy.',
    'Das Widget ist nicht eingerichtet: Das Attribut {name} ist ungültig.',
  ],
  errorLoad: ['Units cannot be loaded.', 'Nie można wczytać jednostek.', 'Einheiten können nicht geladen werden.'],
  errorVerify: [
    'These units failed their authenticity check and are not shown.',
    'Te jednostki nie przeszły weryfikacji autentyczności i nie są wyświetlane.',
    'Diese Einheiten haben die Echtheitsprüfung nicht bestanden und werden nicht angezeigt.',
  ],
  errorExpired: [
    'This list of units is out of date and is not shown.',
    'Ta lista jednostek jest nieaktualna i nie jest wyświetlana.',
    'Diese Liste ist veraltet und wird nicht angezeigt.',
  ],
  errorNotFound: [
    'This unit is no longer available.',
    'Ta jednostka nie jest już dostępna.',
    'Diese Einheit ist nicht mehr verfügbar.',
  ],
  instead: ['{price} instead of {regular}', '{price} zamiast {regular}', '{price} statt {regular}'],
  schedule: ['Price by period', 'Cena w kolejnych okresach', 'Preis je Zeitraum'],
  firstPeriod: FIRST_PERIOD_WORDS,
  protectionRequired: ['Required: {plan}, {price}', 'Wymagane: {plan}, {price}', 'Erforderlich: {plan}, {price}'],
  protectionOptional: ['Optional, from {price}', 'Opcjonalne, od {price}', 'Optional, ab {price}'],
  door: ['Door (W × H)', 'Drzwi (szer. × wys.)', 'Tür (B × H)'],
  map: ['Map', 'Mapa', 'Karte'],
  officeHours: ['Office', 'Biuro', 'Büro'],
  accessHours: ['Access', 'Dostęp', 'Zugang'],
  openNow: ['Open now', 'Teraz otwarte', 'Jetzt geöffnet'],
  closedNow: ['Closed now', 'Teraz zamknięte', 'Jetzt geschlossen'],
};

/**
 * Each vocabulary word in English, Polish and German, as STRINGS has its texts: features and amenities as the rental
 * page says them; a unit type is a card's short word ("Small"), an empty one reading as the word itself, as does a
 * word a language leaves out.
 */
const WORDS: { [G in WordGroup]: Record<string, [en: string, pl: string, de?: string]> } = {
  featureNames: FEATURE_WORDS,
  amenityNames: AMENITY_WORDS,
  unitTypeNames: {
    locker: ['', 'Skrytka', 'Schließfach'],
    small: ['', 'Mały', 'Klein'],
    medium: ['', 'Średni', 'Mittel'],
    large: ['', 'Duży', 'Groß'],
    xl: ['Extra large', 'Bardzo duży', 'Sehr groß'],
    parking: ['Parking space', 'Miejsce parkingowe', 'Stellplatz'],
    container: ['', 'Kontener'],
    wine: ['Wine storage', 'Przechowalnia wina', 'Weinlager'],
    archive: ['Archive storage', 'Archiwum', 'Archivraum'],
  },
};

/** One language's table (English for a language we do not have): every entry of STRINGS in that language. */
function tableOf(language: string): Record<string, unknown> {
  const column = Math.max(0, (LANGUAGES as readonly string[]).indexOf(language));
  const table: Record<string, unknown> = {};
  for (const [key, texts] of Object.entries(STRINGS)) table[key] = texts[column];
  for (const [group, words] of Object.entries(WORDS)) {
    table[group] = Object.fromEntries(
      Object.entries(words).flatMap(([word, texts]) => (texts[column] ? [[word, texts[column]]] : [])),
    );
  }
  return table;
}

function isLocale(tag: string | null | undefined): tag is string {
  if (!tag) return false;
  try {
    return Intl.getCanonicalLocales(tag).length === 1;
  } catch {
    return false;
  }
}

/**
 * The `locale` attribute, else the closest `lang` around the element (a page section in another language), else the
 * page's `<html lang>`, else the browser's language, else English.
 */
export function pickLocale(attribute: string | undefined, host?: Element): string {
  const candidates = [
    attribute,
    host?.closest('[lang]')?.getAttribute('lang'),
    document.documentElement.lang,
    navigator.language,
  ];
  return candidates.find(isLocale) ?? 'en';
}

/** The keys of whole texts (not of a vocabulary's words). */
export type TextKey = Exclude<keyof Strings, WordGroup>;

export interface Translate {
  (key: TextKey, vars?: Record<string, string | number>, count?: number): string;
  /** A vocabulary word's text; one without an entry (English's plain words, a newer server's) reads as itself. */
  word(group: WordGroup, word: string): string;
}

/**
 * An entry as overridden: a text replaces it; plural forms and vocabulary words are overridden one by one, and those an
 * override does not give keep the built-in text (a plain text's stands in for every form). Overrides may come from a
 * JSON attribute: a value, form or word that is not text is none given, and no shape throws while rendering.
 */
function overridden(builtIn: unknown, given: unknown): unknown {
  if (typeof given === 'string') return given;
  const entry: Record<string, unknown> = typeof builtIn === 'object' ? { ...builtIn } : { other: builtIn };
  for (const [name, text] of Object.entries(Object(given))) if (typeof text === 'string') entry[name] = text;
  return entry;
}

/** A locale's language: "pl-PL" is "pl". */
const languageOf = (locale: string): string => locale.split('-')[0]!.toLowerCase();

/** Whether the widget has its own words in a locale's language; all its languages are written left to right. */
export const hasWords = (locale: string): boolean => isLanguage(languageOf(locale));

/** A translator for one locale: its table (by language, English when missing) under the per-instance overrides. */
export function translator(locale: string, overrides: Partial<Strings> | undefined): Translate {
  const base = tableOf(languageOf(locale));
  const table = { ...base };
  for (const key in overrides) table[key] = overridden(base[key], (overrides as Record<string, unknown>)[key]);
  const plurals = new Intl.PluralRules(locale);
  const t = (key: TextKey, vars: Record<string, string | number> = {}, count?: number): string => {
    const entry = table[key] as Strings[TextKey];
    const template = String(
      typeof entry === 'object' ? (entry[plurals.select(count ?? 0)] ?? entry.other ?? '') : entry,
    );
    return template.replace(/\{(\w+)\}/g, (whole, name: string) =>
      String(Object.hasOwn(vars, name) ? vars[name] : whole),
    );
  };
  return Object.assign(t, {
    word: (group: WordGroup, word: string): string => {
      const words = table[group] as Record<string, unknown>;
      const text = Object.hasOwn(words, word) && words[word];
      return typeof text === 'string' ? text : word.charAt(0).toUpperCase() + word.slice(1).replace(/_/g, ' ');
    },
  });
}
