// Words for the contract's vocabularies and days in English, Polish and German, for pages and structured data.
import type { Amenity, Day, Feature, UnitType } from './listing.ts';
import { LANGUAGES, type Language } from './languages.ts';

type Words<W extends string> = Record<W, [en: string, pl: string, de: string]>;

const FEATURES: Words<Feature> = {
  climate_controlled: ['Climate controlled', 'Klimatyzacja', 'Klimatisiert'],
  heated: ['Heated', 'Ogrzewanie', 'Beheizt'],
  indoor: ['Indoor', 'W budynku', 'Innen'],
  outdoor: ['Outdoor', 'Na zewnątrz', 'Außen'],
  drive_up: ['Drive-up', 'Dojazd autem', 'Direkt anfahrbar'],
  ground_floor: ['Ground floor', 'Parter', 'Erdgeschoss'],
  elevator_access: ['Lift access', 'Dostęp windą', 'Aufzugszugang'],
  power: ['Power socket', 'Gniazdko', 'Steckdose'],
  lighting: ['Lighting', 'Oświetlenie', 'Beleuchtung'],
  alarmed: ['Alarmed', 'Alarm', 'Alarmgesichert'],
  shelving: ['Shelving', 'Regały', 'Regale'],
  roll_up_door: ['Roll-up door', 'Brama rolowana', 'Rolltor'],
};

const AMENITIES: Words<Amenity> = {
  cctv: ['CCTV', 'Monitoring', 'Videoüberwachung'],
  gated: ['Gated', 'Teren ogrodzony', 'Umzäunt'],
  alarm: ['Alarm system', 'System alarmowy', 'Alarmanlage'],
  on_site_staff: ['Staff on site', 'Obsługa na miejscu', 'Personal vor Ort'],
  loading_bay: ['Loading bay', 'Rampa załadunkowa', 'Laderampe'],
  trolleys: ['Trolleys', 'Wózki', 'Transportwagen'],
  elevator: ['Lift', 'Winda', 'Aufzug'],
  parking: ['Parking', 'Parking', 'Parkplätze'],
  packing_supplies: ['Packing supplies', 'Materiały do pakowania', 'Verpackungsmaterial'],
  wifi: ['Wi-Fi', 'Wi-Fi', 'WLAN'],
};

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
    { features: column(FEATURES, l), amenities: column(AMENITIES, l), unitTypes: column(UNIT_TYPES, l) },
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
