// The rental page's schema.org JSON-LD for search engines: the widget's lean SelfStorage business and Offers
// (shared/structured-data-lean.ts) with the business's address, coordinates, contact, hours and amenities and each
// Offer's price per period added.
import type {
  GeoCoordinates,
  LocationFeatureSpecification,
  Offer,
  OpeningHoursSpecification,
  PostalAddress,
  UnitPriceSpecification,
} from 'schema-dts';
import type { Day, FacilityInfo, Hours } from './listing.ts';
import { majorUnits, parseDuration } from './format.ts';
import { AMENITY_LABELS, DAY_NAMES } from './rental-labels.ts';
import { leanOfferOf, leanSelfStorageOf, type Listed, type SelfStorageLd } from './structured-data-lean.ts';

export type { SelfStorageLd };

/** What the business is made from: the list's facility object, or the rental page's facility, or just a name. */
export type Described = Pick<FacilityInfo, 'name'> &
  Partial<Pick<FacilityInfo, 'address' | 'geo' | 'contact' | 'office_hours' | 'access_hours' | 'amenities'>>;

/** What an Offer is made from: any Summary or Detail; the schedule and promotions count when present. */
export type Offered = Listed & {
  schedule?: readonly { from_period: number; to_period: number | null; gross: number; promotion: string | null }[];
  promotions?: readonly { code: string; title: string; ends_at?: string | null }[];
};

/** The days, Monday first, from a zod-free file: listing.ts's DAYS would bring zod into any browser bundle of shared/. */
const DAYS = Object.keys(DAY_NAMES) as Day[];

/** UN/CEFACT common codes of the billing period's unit, as schema.org's unitCode takes them. */
const UNIT_CODES = { year: 'ANN', month: 'MON', week: 'WEE', day: 'DAY' } as const;

/** A billing period of one unit (P1M, P2W) as a count and a unit code; undefined for a mixed one (P1Y2M). */
function periodUnit(period: string): { count: number; unitCode: string } | undefined {
  const parts = parseDuration(period);
  if (parts?.length !== 1) return undefined;
  const [unit, count] = parts[0]!;
  return { count, unitCode: UNIT_CODES[unit] };
}

/** `times` billing periods as one ISO 8601 duration: 3 × P1M = P3M. */
function periodsOf(period: string, times: number): string {
  return period.replace(/\d+/g, (n) => String(Number(n) * times));
}

/**
 * The price a new tenant pays per billing period, one UnitPriceSpecification per run of the schedule: a promoted run
 * says when billing at its price starts (billingStart, in periods' units) and for how long (billingDuration); the
 * regular run recurs each period (billingDuration = the period), and a promotion that ends says until when it is
 * offered (validThrough). Gross prices: VAT included.
 */
function priceSpecificationsOf({ price, schedule, promotions }: Offered): UnitPriceSpecification[] {
  const unit = periodUnit(price.period);
  const runs = schedule?.length ? schedule : [{ from_period: 1, to_period: null, gross: price.gross, promotion: null }];
  return runs.map((run) => {
    const spec: UnitPriceSpecification = {
      '@type': 'UnitPriceSpecification',
      price: majorUnits(run.gross, price.currency),
      priceCurrency: price.currency,
      valueAddedTaxIncluded: true,
      billingDuration:
        run.to_period === null ? price.period : periodsOf(price.period, run.to_period - run.from_period + 1),
    };
    const promotion = run.promotion === null ? undefined : promotions?.find((p) => p.code === run.promotion);
    if (promotion !== undefined) spec.name = promotion.title;
    // A promoted price is offered until its promotion ends: a search engine's copy says so after the end.
    if (promotion?.ends_at) spec.validThrough = promotion.ends_at;
    if (unit) {
      spec.referenceQuantity = { '@type': 'QuantitativeValue', value: unit.count, unitCode: unit.unitCode };
      if (run.from_period > 1) {
        spec.billingStart = (run.from_period - 1) * unit.count;
        spec.unitCode = unit.unitCode;
      }
    }
    return spec;
  });
}

/** A listing as a schema.org Offer: the lean one (regular gross price in major units, availability, rent URL) with the
 * price per period a new tenant pays, promotions included. */
export function offerOf(listing: Offered): Offer {
  return { ...leanOfferOf(listing), priceSpecification: priceSpecificationsOf(listing) };
}

/** "09:00" as schema.org's Time; a range that ends at 24:00 closes at the day's last second. */
const timeOf = (hhmm: string) => (hhmm === '24:00' ? '23:59:59' : `${hhmm}:00`);

/** Hours as OpeningHoursSpecifications, one per range, the days that share it together; closed days have none. */
export function openingHoursOf(hours: Hours): OpeningHoursSpecification[] {
  const days = new Map<string, Day[]>();
  for (const day of DAYS) for (const range of hours[day]) days.set(range, [...(days.get(range) ?? []), day]);
  return [...days].map(([range, on]) => {
    const [opens, closes] = range.split('-') as [string, string];
    return {
      '@type': 'OpeningHoursSpecification',
      dayOfWeek: on.map((d) => DAY_NAMES[d] as 'Monday'),
      opens: timeOf(opens),
      closes: timeOf(closes),
    };
  });
}

function addressOf(a: NonNullable<FacilityInfo['address']>): PostalAddress {
  const address: PostalAddress = { '@type': 'PostalAddress', addressLocality: a.city, addressCountry: a.country };
  if (a.street !== null) address.streetAddress = a.street;
  if (a.postal_code !== null) address.postalCode = a.postal_code;
  if (a.region !== null) address.addressRegion = a.region;
  return address;
}

const geoOf = (g: NonNullable<FacilityInfo['geo']>): GeoCoordinates => ({
  '@type': 'GeoCoordinates',
  latitude: g.lat,
  longitude: g.lng,
});

/** Amenities as features of the place; the access (gate) hours as one more, with the hours it is available. */
function amenityFeaturesOf(facility: Described): LocationFeatureSpecification[] {
  const features: LocationFeatureSpecification[] = (facility.amenities ?? []).map((a) => ({
    '@type': 'LocationFeatureSpecification',
    name: AMENITY_LABELS[a],
    value: true,
  }));
  if (facility.access_hours) {
    features.push({
      '@type': 'LocationFeatureSpecification',
      name: 'Access hours',
      value: true,
      hoursAvailable: openingHoursOf(facility.access_hours),
    });
  }
  return features;
}

/**
 * A facility as a schema.org SelfStorage business that makes one Offer per listing: its address, coordinates, contact,
 * office hours (or, without them, access hours) and amenities when given. A name alone (or none) makes a bare one.
 */
export function selfStorageOf(facility: string | Described | undefined, listings: readonly Offered[]): SelfStorageLd {
  const f: Described | undefined = typeof facility === 'string' ? { name: facility } : facility;
  const ld = leanSelfStorageOf(f, listings, offerOf);
  if (!f) return ld;
  if (f.address) ld.address = addressOf(f.address);
  if (f.geo) ld.geo = geoOf(f.geo);
  if (f.contact?.phone) ld.telephone = f.contact.phone;
  if (f.contact?.email) ld.email = f.contact.email;
  const hours = f.office_hours ?? f.access_hours;
  if (hours) ld.openingHoursSpecification = openingHoursOf(hours);
  const features = amenityFeaturesOf(f);
  if (features.length > 0) ld.amenityFeature = features;
  return ld;
}
