// Every string the widget shows, in English, Polish and German; the locale picks a table, `strings` overrides any entry.

/** A string that depends on a count, by Intl.PluralRules category ("few" and "many" matter in Polish). */
export type Plural = { [K in Intl.LDMLPluralRule]?: string } & { other: string };

export interface Strings {
  rent: string;
  details: string;
  close: string;
  newTab: string;
  loading: string;
  empty: string;
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
  errorRate: string;
  errorNetwork: string;
  errorServer: string;
  errorConfig: string;
  errorVerify: string;
  errorExpired: string;
  errorNotFound: string;
}

const en: Strings = {
  rent: 'Rent',
  details: 'Details',
  close: 'Close',
  newTab: '(opens in a new tab)',
  loading: 'Loading units…',
  empty: 'No units available',
  shown: { one: '{n} unit shown', other: '{n} units shown' },
  per: '/ {period}',
  net: '{net} net + {vat} VAT',
  unitsLeft: { one: '{n} unit left', other: '{n} units left' },
  lastUnit: 'Last unit',
  soldOut: 'Sold out',
  area: 'Area',
  dimensions: 'Dimensions (W × D × H)',
  description: 'Description',
  minRental: 'Minimum rental',
  notice: 'Notice period',
  deposit: 'Deposit',
  price: 'Price',
  photos: 'Photos',
  noPhoto: 'No photo yet',
  photoOf: 'Photo {i} of {n}',
  previous: 'Previous photo',
  next: 'Next photo',
  retry: 'Retry',
  errorCode: 'Error code: {code}',
  errorAuth:
    'Units cannot be shown: the API key is missing, invalid or revoked. Site owner: check the api-key attribute.',
  errorRate: 'Too many requests. Please try again in {s} s.',
  errorNetwork: 'Units could not be loaded. Check your connection and try again.',
  errorServer: 'Units cannot be loaded right now. Please try again.',
  errorConfig: 'This widget is not set up: give it api-key and api-base, or src.',
  errorVerify: 'These units failed their authenticity check and are not shown.',
  errorExpired: 'This list of units is out of date and is not shown.',
  errorNotFound: 'This unit is no longer available.',
};

const pl: Strings = {
  rent: 'Wynajmij',
  details: 'Szczegóły',
  close: 'Zamknij',
  newTab: '(otwiera się w nowej karcie)',
  loading: 'Wczytywanie jednostek…',
  empty: 'Brak dostępnych jednostek',
  shown: { one: 'Pokazano {n} jednostkę', few: 'Pokazano {n} jednostki', other: 'Pokazano {n} jednostek' },
  per: '/ {period}',
  net: '{net} netto + {vat} VAT',
  unitsLeft: { one: 'Została {n} jednostka', few: 'Zostały {n} jednostki', other: 'Zostało {n} jednostek' },
  lastUnit: 'Ostatnia jednostka',
  soldOut: 'Wyprzedane',
  area: 'Powierzchnia',
  dimensions: 'Wymiary (szer. × gł. × wys.)',
  description: 'Opis',
  minRental: 'Minimalny okres najmu',
  notice: 'Okres wypowiedzenia',
  deposit: 'Kaucja',
  price: 'Cena',
  photos: 'Zdjęcia',
  noPhoto: 'Brak zdjęcia',
  photoOf: 'Zdjęcie {i} z {n}',
  previous: 'Poprzednie zdjęcie',
  next: 'Następne zdjęcie',
  retry: 'Spróbuj ponownie',
  errorCode: 'Kod błędu: {code}',
  errorAuth:
    'Nie można wyświetlić jednostek: brak klucza API albo klucz jest nieprawidłowy lub unieważniony. Właściciel strony: sprawdź atrybut api-key.',
  errorRate: 'Zbyt wiele zapytań. Spróbuj ponownie za {s} s.',
  errorNetwork: 'Nie udało się wczytać jednostek. Sprawdź połączenie i spróbuj ponownie.',
  errorServer: 'Nie można teraz wczytać jednostek. Spróbuj ponownie.',
  errorConfig: 'Widżet nie jest skonfigurowany: podaj api-key i api-base albo src.',
  errorVerify: 'Te jednostki nie przeszły weryfikacji autentyczności i nie są wyświetlane.',
  errorExpired: 'Ta lista jednostek jest nieaktualna i nie jest wyświetlana.',
  errorNotFound: 'Ta jednostka nie jest już dostępna.',
};

const de: Strings = {
  rent: 'Mieten',
  details: 'Details',
  close: 'Schließen',
  newTab: '(öffnet in neuem Tab)',
  loading: 'Einheiten werden geladen…',
  empty: 'Keine Einheiten verfügbar',
  shown: { one: '{n} Einheit angezeigt', other: '{n} Einheiten angezeigt' },
  per: '/ {period}',
  net: '{net} netto zzgl. {vat} MwSt.',
  unitsLeft: { one: 'Noch {n} Einheit frei', other: 'Noch {n} Einheiten frei' },
  lastUnit: 'Letzte Einheit',
  soldOut: 'Ausgebucht',
  area: 'Fläche',
  dimensions: 'Maße (B × T × H)',
  description: 'Beschreibung',
  minRental: 'Mindestmietdauer',
  notice: 'Kündigungsfrist',
  deposit: 'Kaution',
  price: 'Preis',
  photos: 'Fotos',
  noPhoto: 'Noch kein Foto',
  photoOf: 'Foto {i} von {n}',
  previous: 'Vorheriges Foto',
  next: 'Nächstes Foto',
  retry: 'Erneut versuchen',
  errorCode: 'Fehlercode: {code}',
  errorAuth:
    'Einheiten können nicht angezeigt werden: Der API-Schlüssel fehlt, ist ungültig oder wurde widerrufen. Für den Seitenbetreiber: Attribut api-key prüfen.',
  errorRate: 'Zu viele Anfragen. Bitte in {s} s erneut versuchen.',
  errorNetwork: 'Einheiten konnten nicht geladen werden. Bitte Verbindung prüfen und erneut versuchen.',
  errorServer: 'Einheiten können gerade nicht geladen werden. Bitte erneut versuchen.',
  errorConfig: 'Das Widget ist nicht eingerichtet: api-key und api-base oder src angeben.',
  errorVerify: 'Diese Einheiten haben die Echtheitsprüfung nicht bestanden und werden nicht angezeigt.',
  errorExpired: 'Diese Liste ist veraltet und wird nicht angezeigt.',
  errorNotFound: 'Diese Einheit ist nicht mehr verfügbar.',
};

export const translations: Readonly<Record<string, Strings>> = { en, pl, de };

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

export type Translate = (key: keyof Strings, vars?: Record<string, string | number>, count?: number) => string;

/** A translator for one locale: its table (by language, English when missing) under the per-instance overrides. */
export function translator(locale: string, overrides: Partial<Strings> | undefined): Translate {
  const language = locale.split('-')[0]?.toLowerCase() ?? 'en';
  const table: Strings = { ...en, ...translations[language], ...overrides };
  const plurals = new Intl.PluralRules(locale);
  return (key, vars = {}, count) => {
    const entry = table[key];
    // Overrides may come from a JSON attribute: tolerate any shape rather than throw while rendering.
    const template = String(
      typeof entry === 'object' && entry !== null ? (entry[plurals.select(count ?? 0)] ?? entry.other ?? '') : entry,
    );
    return template.replace(/\{(\w+)\}/g, (whole, name: string) => String(vars[name] ?? whole));
  };
}
