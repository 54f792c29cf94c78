// The rental page's words in English, Polish and German, side by side so that a missing translation shows in review;
// `{name}` marks where a value goes (html.ts's fill), a count's words follow Intl.PluralRules.
import { memoBy } from '../memo.ts';
import { DEFAULT_DESCRIPTION } from './html.ts';
import { DAYS, type Day } from '../../../shared/listing.ts';
import { LANGUAGES, type Language } from '../../../shared/languages.ts';
import { labelsIn, type Labels } from '../../../shared/rental-labels.ts';
import { FEATURE_WORDS, FIRST_PERIOD_WORDS, SHARED_TEXTS } from '../../../shared/rental-words.ts';

/** Words that depend on a count, by plural category ("few" and "many" matter in Polish). */
export type Plural = { [K in Intl.LDMLPluralRule]?: string } & { other: string };

type Columns<T> = [en: T, pl: T, de: T];

/** The page's own words, and those it says as the widget does (SHARED_TEXTS). */
const TEXTS = {
  ...SHARED_TEXTS,
  unit: ['Unit {code}', 'Jednostka {code}', 'Einheit {code}'],
  per: ['per {period}', 'za {period}', 'pro {period}'],
  pricePer: ['{price} per {period}', '{price} za {period}', '{price} pro {period}'],
  instead: [
    '{price} instead of {regular} per {period}',
    '{price} zamiast {regular} za {period}',
    '{price} statt {regular} pro {period}',
  ],
  net: ['Net {net} + VAT {rate}', 'Netto {net} + VAT {rate}', 'Netto {net} zzgl. MwSt. {rate}'],
  dynamic: [
    '(current demand-based price)',
    '(aktualna cena zależna od popytu)',
    '(aktueller nachfrageabhängiger Preis)',
  ],
  free: [
    { one: '{n} unit free', other: '{n} units free' },
    { one: '{n} wolna jednostka', few: '{n} wolne jednostki', other: '{n} wolnych jednostek' },
    { one: '{n} Einheit frei', other: '{n} Einheiten frei' },
  ] as Columns<Plural>,
  soldOutNow: ['Currently sold out', 'Obecnie wyprzedane', 'Derzeit ausgebucht'],
  dimensions: ['Dimensions', 'Wymiary', 'Maße'],
  unitType: ['Unit type', 'Rodzaj jednostki', 'Art der Einheit'],
  groundFloor: FEATURE_WORDS.ground_floor,
  door: ['Door', 'Drzwi', 'Tür'],
  atMoveOut: ['{price} at move-out', '{price} przy wyprowadzce', '{price} beim Auszug'],
  promotions: ['Promotions', 'Promocje', 'Aktionen'],
  promotion: ['{title}: {price} for {periods}', '{title}: {price} ({periods})', '{title}: {price} ({periods})'],
  until: [', until {date}', ', do {date}', ', bis {date}'],
  newTenants: [' For new tenants.', ' Dla nowych najemców.', ' Für Neumieter.'],
  billingPeriod: ['period', 'okres', 'Zeitraum'],
  periodOne: ['{Unit} {from}', '{from}. {unit}', '{from}. {Unit}'],
  periodRange: ['{Unit}s {from}–{to}', '{from}.–{to}. {unit}', '{from}.–{to}. {Unit}'],
  periodOpen: ['From {unit} {from}', '{from}. {unit} i kolejne', 'Ab {from}. {Unit}'],
  schedule: ['What you pay', 'Ile płacisz', 'Was Sie zahlen'],
  regularPrice: ['Regular price', 'Cena regularna', 'Regulärer Preis'],
  firstPeriod: FIRST_PERIOD_WORDS,
  depositNoVat: ['Deposit (no VAT)', 'Kaucja (bez VAT)', 'Kaution (ohne MwSt.)'],
  protectionRequired: [
    'Required: the cheapest plan is part of the move-in total.',
    'Wymagane: najtańszy plan jest wliczony w kwotę przy wprowadzeniu.',
    'Erforderlich: Der günstigste Tarif ist im Betrag beim Einzug enthalten.',
  ],
  protectionOptional: ['Optional.', 'Opcjonalne.', 'Optional.'],
  plan: ['{plan}: {price}, covers {cover}', '{plan}: {price}, ochrona do {cover}', '{plan}: {price}, deckt {cover}'],
  noPhoto: ['No photo of this unit yet', 'Brak jeszcze zdjęcia tej jednostki', 'Noch kein Foto dieser Einheit'],
  map: ['Map (OpenStreetMap)', 'Mapa (OpenStreetMap)', 'Karte (OpenStreetMap)'],
  officeHours: ['Office hours', 'Godziny pracy biura', 'Bürozeiten'],
  accessHours: ['Access hours', 'Godziny dostępu', 'Zugangszeiten'],
  open247: ['Open 24/7', 'Otwarte 24/7', 'Rund um die Uhr geöffnet'],
  closed: ['Closed', 'Zamknięte', 'Geschlossen'],
  howToRent: ['How to rent', 'Jak wynająć', 'So mieten Sie'],
  rent: ['Rent this unit', 'Wynajmij tę jednostkę', 'Diese Einheit mieten'],
  rentByEmail: [
    'Rent this unit: email {name}',
    'Wynajmij tę jednostkę: napisz do {name}',
    'Diese Einheit mieten: E-Mail an {name}',
  ],
  rentByPhone: [
    'Rent this unit: call {phone}',
    'Wynajmij tę jednostkę: zadzwoń {phone}',
    'Diese Einheit mieten: Anruf unter {phone}',
  ],
  rentContact: [
    'To rent this unit, contact {name}.',
    'Aby wynająć tę jednostkę, skontaktuj się z {name}.',
    'Um diese Einheit zu mieten, wenden Sie sich an {name}.',
  ],
  mailSubject: ['Renting {code}: {title}', 'Najem {code}: {title}', 'Miete {code}: {title}'],
  email: ['email {address}', 'napisz na {address}', 'schreiben Sie an {address}'],
  call: ['call {phone}', 'zadzwoń pod {phone}', 'rufen Sie {phone} an'],
  or: [' or ', ' lub ', ' oder '],
  stepsBooking: [
    "Rent this unit continues on {name}'s booking page, where you choose a start date, sign and pay.",
    'Najem tej jednostki kończysz na stronie rezerwacji {name}: tam wybierasz datę rozpoczęcia, podpisujesz umowę i płacisz.',
    'Die Miete dieser Einheit geht auf der Buchungsseite von {name} weiter: Dort wählen Sie den Beginn, unterschreiben und zahlen.',
  ],
  stepsQuestions: [' Questions first? {reach}.', ' Pytania? {reach}.', ' Vorher Fragen? {reach}.'],
  stepsDirect: [
    '{name} rents this unit directly: {reach}, and they confirm the start date, the contract and the payment with you.',
    '{name} wynajmuje tę jednostkę bezpośrednio: {reach}, a datę rozpoczęcia, umowę i płatność ustalicie razem.',
    '{name} vermietet diese Einheit direkt: {reach}; Beginn, Vertrag und Zahlung werden mit Ihnen abgestimmt.',
  ],
  stepsNone: [
    'This page shows live prices and free units. Online booking is not offered here: contact {name} to rent.',
    'Ta strona pokazuje aktualne ceny i wolne jednostki. Rezerwacja online nie jest tu dostępna: aby wynająć, skontaktuj się z {name}.',
    'Diese Seite zeigt aktuelle Preise und freie Einheiten. Online-Buchung wird hier nicht angeboten: Zum Mieten wenden Sie sich an {name}.',
  ],
  notFound: ['Unit not found', 'Nie znaleziono jednostki', 'Einheit nicht gefunden'],
  notFoundText: [
    'This unit is not available to rent. It may have been rented out or removed.',
    'Tej jednostki nie można wynająć. Mogła zostać już wynajęta albo usunięta.',
    'Diese Einheit ist nicht zu mieten. Sie wurde vielleicht schon vermietet oder entfernt.',
  ],
  tooMany: ['Too many requests', 'Zbyt wiele żądań', 'Zu viele Anfragen'],
  tooManyText: [
    {
      one: 'Too many pages were requested from your address. Please try again in {n} second.',
      other: 'Too many pages were requested from your address. Please try again in {n} seconds.',
    },
    {
      one: 'Z Twojego adresu zażądano zbyt wielu stron. Spróbuj ponownie za {n} sekundę.',
      few: 'Z Twojego adresu zażądano zbyt wielu stron. Spróbuj ponownie za {n} sekundy.',
      other: 'Z Twojego adresu zażądano zbyt wielu stron. Spróbuj ponownie za {n} sekund.',
    },
    {
      one: 'Von Ihrer Adresse wurden zu viele Seiten angefordert. Bitte versuchen Sie es in {n} Sekunde erneut.',
      other: 'Von Ihrer Adresse wurden zu viele Seiten angefordert. Bitte versuchen Sie es in {n} Sekunden erneut.',
    },
  ] as Columns<Plural>,
  unavailable: ['Temporarily unavailable', 'Chwilowo niedostępne', 'Vorübergehend nicht verfügbar'],
  unavailableText: [
    {
      one: 'Prices and free units cannot be confirmed right now. Please try again in {n} second.',
      other: 'Prices and free units cannot be confirmed right now. Please try again in {n} seconds.',
    },
    {
      one: 'Nie można teraz potwierdzić cen ani wolnych jednostek. Spróbuj ponownie za {n} sekundę.',
      few: 'Nie można teraz potwierdzić cen ani wolnych jednostek. Spróbuj ponownie za {n} sekundy.',
      other: 'Nie można teraz potwierdzić cen ani wolnych jednostek. Spróbuj ponownie za {n} sekund.',
    },
    {
      one: 'Preise und freie Einheiten lassen sich gerade nicht bestätigen. Bitte versuchen Sie es in {n} Sekunde erneut.',
      other:
        'Preise und freie Einheiten lassen sich gerade nicht bestätigen. Bitte versuchen Sie es in {n} Sekunden erneut.',
    },
  ] as Columns<Plural>,
  busy: ['Busy', 'Duże obciążenie', 'Ausgelastet'],
  busyText: [
    'Many pages are being requested right now. Please try again in a moment.',
    'W tej chwili wiele osób otwiera strony. Spróbuj ponownie za chwilę.',
    'Gerade werden sehr viele Seiten angefordert. Bitte versuchen Sie es gleich noch einmal.',
  ],
  failed: ['Something went wrong', 'Coś poszło nie tak', 'Etwas ist schiefgelaufen'],
  failedText: [
    'This page could not be shown because of an error on our side. Please try again in a moment. If it happens again, quote this request id: {id}',
    'Nie udało się wyświetlić tej strony z powodu błędu po naszej stronie. Spróbuj ponownie za chwilę. Jeśli błąd się powtórzy, podaj ten identyfikator żądania: {id}',
    'Diese Seite konnte wegen eines Fehlers auf unserer Seite nicht angezeigt werden. Bitte versuchen Sie es gleich noch einmal. Wenn es wieder passiert, nennen Sie diese Anfrage-ID: {id}',
  ],
  // What search results and link previews show of a page that describes no unit (404, 429, 500, 503).
  siteDescription: [
    DEFAULT_DESCRIPTION,
    'Aktualne ceny, wolne jednostki i zdjęcia magazynów samoobsługowych dla stron partnerów.',
    'Aktuelle Preise, freie Einheiten und Fotos von Selfstorage-Lagern für Partnerseiten.',
  ],
  description: [
    '{title} at {facility}: the live price, free units, photos and how to rent.',
    '{title} w {facility}: aktualna cena, wolne jednostki, zdjęcia i jak wynająć.',
    '{title} bei {facility}: aktueller Preis, freie Einheiten, Fotos und so mieten Sie.',
  ],
} satisfies Record<string, Columns<string> | Columns<Plural>>;

export type RentalTexts = { [K in keyof typeof TEXTS]: (typeof TEXTS)[K][0] };

const TABLES = Object.fromEntries(
  LANGUAGES.map((l, i) => [l, Object.fromEntries(Object.entries(TEXTS).map(([k, texts]) => [k, texts[i]]))]),
) as Record<Language, RentalTexts>;

/** What a page in one language is written with: its texts and the vocabularies' words. */
export interface Speech {
  language: Language;
  t: RentalTexts;
  labels: Labels;
}

export const speechIn = (language: Language): Speech => ({ language, t: TABLES[language], labels: labelsIn(language) });

/** A template as plain text (a mail subject, a meta description), each `{name}` replaced by its value. */
export function say(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) =>
    Object.hasOwn(values, name) ? String(values[name]) : whole,
  );
}

const pluralRules = Object.fromEntries(LANGUAGES.map((l) => [l, new Intl.PluralRules(l)])) as Record<
  Language,
  Intl.PluralRules
>;

/** A count's words in a language: its plural category's form, else `other`. */
export function pluralIn(language: Language, forms: Plural, n: number): string {
  return forms[pluralRules[language].select(n)] ?? forms.other;
}

/** Each language's day names, from Intl (2024-01-01 was a Monday), made once: a formatter costs more than a page. */
const DAY_NAMES = Object.fromEntries(
  LANGUAGES.map((l) => {
    const format = new Intl.DateTimeFormat(l, { weekday: 'long', timeZone: 'UTC' });
    const names = DAYS.map((_, i) => format.format(Date.UTC(2024, 0, 1 + i)));
    return [l, Object.fromEntries(DAYS.map((day, i) => [day, names[i]!.charAt(0).toUpperCase() + names[i]!.slice(1)]))];
  }),
) as Record<Language, Record<Day, string>>;

export const dayName = (day: Day, language: Language): string => DAY_NAMES[language][day];

/** Date formats by language and time zone: one takes some 60 µs to make and 1 µs to use, a render may use several. */
export class DateFormats {
  /** A few hundred zones at most are in use; 2,048 bounds a data set with more. (Tests read it.) */
  readonly kept = memoBy<string, Intl.DateTimeFormat, { language: Language; timeZone: string }>(
    2048,
    (_key, { language, timeZone }) => new Intl.DateTimeFormat(language, { dateStyle: 'long', timeZone }),
  );

  /** A date (an ISO 8601 instant) as the language writes it, on the facility's clock (UTC when it gives none). */
  dateIn(iso: string, language: Language, timeZone: string | null): string {
    const zone = timeZone ?? 'UTC';
    return this.kept.memo(`${language} ${zone}`, { context: { language, timeZone: zone } }).format(new Date(iso));
  }
}
