// The words the widget and the rental page both say, in English, Polish and German side by side so that a missing
// translation shows in review: a unit's terms and price lines, and the features and amenities it lists. Plain data
// only, so that a bundle keeps just the tables it reads.
import type { Amenity, Feature } from './listing.ts';

type Columns = [en: string, pl: string, de: string];

/** A unit's terms and its move-in lines, as both the widget's cards and dialog and the rental page label them. */
export const SHARED_TEXTS = {
  soldOut: ['Sold out', 'Wyprzedane', 'Ausgebucht'],
  area: ['Area', 'Powierzchnia', 'Fläche'],
  deposit: ['Deposit', 'Kaucja', 'Kaution'],
  minRental: ['Minimum rental', 'Minimalny okres najmu', 'Mindestmietdauer'],
  notice: ['Notice period', 'Okres wypowiedzenia', 'Kündigungsfrist'],
  floor: ['Floor', 'Piętro', 'Etage'],
  moveIn: ['Due at move-in', 'Do zapłaty przy wprowadzeniu', 'Fällig beim Einzug'],
  total: ['Total', 'Razem', 'Gesamt'],
  protection: ['Protection', 'Ubezpieczenie', 'Versicherung'],
} satisfies Record<string, Columns>;

/** A count's words by Intl.PluralRules category ("few" and "many" matter in Polish), as both tables write them. */
type PluralForms = { [K in Intl.LDMLPluralRule]?: string } & { other: string };

/**
 * The move-in line of the first period, said in the listing's own period ("First month", "First 3 months", "First 14
 * days"): its forms follow the count of that period's unit, which Polish and German agree with.
 */
export const FIRST_PERIOD_WORDS: [en: PluralForms, pl: PluralForms, de: PluralForms] = [
  { other: 'First {period}' },
  { one: 'Pierwszy {period}', other: 'Pierwsze {period}' },
  { one: 'Miete, 1. {period}', other: 'Miete, erste {period}' },
];

export const FEATURE_WORDS: Record<Feature, Columns> = {
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

export const AMENITY_WORDS: Record<Amenity, Columns> = {
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
