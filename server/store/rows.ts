// Facilities and listings as rows and back: what an import file writes (both stores) and what a read gives the domain.
import {
  listingIdOf,
  type Facility,
  type FacilityFee,
  type FacilityProtection,
  type Listing,
  type ListingPromotion,
  type Photo,
} from '../domain/facility.ts';
import type { ImportFile } from '../schemas/import.ts';
import type { Address, Amenity, Feature, Hours, UnitType } from '../../shared/listing.ts';

type ImportFacility = ImportFile['facilities'][number];
type ImportListing = ImportFacility['listings'][number];

/** A facility as its row holds it: nested values as JSON text, coordinates in two columns. */
export interface FacilityRow extends Omit<
  Facility,
  'address' | 'geo' | 'office_hours' | 'access_hours' | 'amenities' | 'fees' | 'protection'
> {
  address: string | null;
  geo_lat: number | null;
  geo_lng: number | null;
  office_hours: string | null;
  access_hours: string | null;
  amenities: string;
  fees: string;
  protection: string | null;
}

/** A listing row as SQLite gives it: 0/1 for booleans, nested values as JSON text. */
export interface ListingRow extends Omit<Listing, 'dynamic_pricing' | 'photos' | 'features' | 'door' | 'promotions'> {
  dynamic_pricing: number;
  features: string;
  door_width_m: number | null;
  door_height_m: number | null;
  promotions: string;
}

export const FACILITY_COLUMNS = `id, name, currency, rental_page_url, booking_url, contact_email, contact_phone, address,
  geo_lat, geo_lng, timezone, office_hours, access_hours, amenities, fees, protection`;

export const LISTING_COLUMNS = `id, code, title, area_m2, width_m, depth_m, height_m, description, price_gross, price_period,
  vat_rate, dynamic_pricing, total_units, free_units, min_rental_period, notice_period, deposit, unit_type, features,
  floor, door_width_m, door_height_m, promotions`;

const json = (value: unknown): string | null => (value === undefined ? null : JSON.stringify(value));

/** Each nested object in the contract's key order, so equal data gives equal text (and equal answers). */
function addressOf(a: NonNullable<ImportFacility['address']>): Address {
  return { street: a.street, postal_code: a.postal_code, city: a.city, region: a.region, country: a.country };
}

function hoursOf(h: Hours): Hours {
  return { mo: h.mo, tu: h.tu, we: h.we, th: h.th, fr: h.fr, sa: h.sa, su: h.su };
}

function feeOf(f: ImportFacility['fees'][number]): FacilityFee {
  return { code: f.code, title: f.title, amount_gross: f.amount_gross, vat_rate: f.vat_rate, when: f.when };
}

function protectionOf(p: NonNullable<ImportFacility['protection']>): FacilityProtection {
  return {
    required: p.required,
    plans: p.plans.map((plan) => ({
      code: plan.code,
      title: plan.title,
      cover: plan.cover,
      price_gross: plan.price_gross,
      vat_rate: plan.vat_rate,
      period: plan.period,
    })),
  };
}

function promotionOf(p: ImportListing['promotions'][number]): ListingPromotion {
  return {
    code: p.code,
    title: p.title,
    terms: p.terms,
    kind: p.kind,
    value: p.value,
    from_period: p.from_period,
    to_period: p.to_period,
    starts_at: p.starts_at,
    ends_at: p.ends_at,
    new_tenants_only: p.new_tenants_only,
  };
}

/** A facility of an import file as its row (both stores write it); lists a caller built without parsing count as []. */
export function facilityRowOf(f: ImportFacility, importedAt: string) {
  return {
    id: f.id,
    name: f.name,
    currency: f.currency,
    rental_page_url: f.rental_page_url ?? null,
    booking_url: f.booking_url ?? null,
    contact_email: f.contact?.email ?? null,
    contact_phone: f.contact?.phone ?? null,
    imported_at: importedAt,
    address: f.address ? JSON.stringify(addressOf(f.address)) : null,
    geo_lat: f.geo?.lat ?? null,
    geo_lng: f.geo?.lng ?? null,
    timezone: f.timezone ?? null,
    office_hours: f.office_hours ? JSON.stringify(hoursOf(f.office_hours)) : null,
    access_hours: f.access_hours ? JSON.stringify(hoursOf(f.access_hours)) : null,
    amenities: JSON.stringify(f.amenities ?? []),
    fees: JSON.stringify((f.fees ?? []).map(feeOf)),
    protection: f.protection ? json(protectionOf(f.protection)) : null,
  };
}

/** A listing of an import file as its row, 0/1 for booleans (both stores write it). */
export function listingRowOf(facilityId: string, l: ImportListing, position: number) {
  return {
    id: listingIdOf(facilityId, l.code),
    facility_id: facilityId,
    code: l.code,
    position,
    active: l.active ? 1 : 0,
    title: l.title,
    area_m2: l.area_m2,
    width_m: l.dimensions.width_m,
    depth_m: l.dimensions.depth_m,
    height_m: l.dimensions.height_m ?? null,
    description: l.description,
    price_gross: l.price_gross,
    price_period: l.price_period,
    vat_rate: l.vat_rate,
    dynamic_pricing: l.dynamic_pricing ? 1 : 0,
    total_units: l.total_units,
    free_units: l.free_units,
    min_rental_period: l.min_rental_period,
    notice_period: l.notice_period,
    deposit: l.deposit,
    unit_type: l.unit_type ?? null,
    features: JSON.stringify(l.features ?? []),
    floor: l.floor ?? null,
    door_width_m: l.door?.width_m ?? null,
    door_height_m: l.door?.height_m ?? null,
    promotions: JSON.stringify((l.promotions ?? []).map(promotionOf)),
  };
}

/** A facility row as a domain facility. */
export function facilityOf(row: FacilityRow): Facility {
  return {
    id: row.id,
    name: row.name,
    currency: row.currency,
    rental_page_url: row.rental_page_url,
    booking_url: row.booking_url,
    contact_email: row.contact_email,
    contact_phone: row.contact_phone,
    address: row.address === null ? null : (JSON.parse(row.address) as Address),
    geo: row.geo_lat === null || row.geo_lng === null ? null : { lat: row.geo_lat, lng: row.geo_lng },
    timezone: row.timezone,
    office_hours: row.office_hours === null ? null : (JSON.parse(row.office_hours) as Hours),
    access_hours: row.access_hours === null ? null : (JSON.parse(row.access_hours) as Hours),
    amenities: JSON.parse(row.amenities) as Amenity[],
    fees: JSON.parse(row.fees) as FacilityFee[],
    protection: row.protection === null ? null : (JSON.parse(row.protection) as FacilityProtection),
  };
}

/** Most listings have none: the common empty list is not parsed each time. */
const NONE = '[]';

/**
 * A listing row as a domain listing. One literal rather than a spread of the row: a spread gives rows whose columns mix
 * null and values a hidden class each, and building a large facility's views would read every field megamorphically.
 */
export function listingOf(row: ListingRow, photos: Photo[]): Listing {
  return {
    id: row.id,
    code: row.code,
    title: row.title,
    area_m2: row.area_m2,
    width_m: row.width_m,
    depth_m: row.depth_m,
    height_m: row.height_m,
    description: row.description,
    // PostgreSQL gives its bigint columns as text (a JavaScript number holds 10^12 exactly).
    price_gross: Number(row.price_gross),
    price_period: row.price_period,
    vat_rate: row.vat_rate,
    dynamic_pricing: row.dynamic_pricing === 1,
    total_units: row.total_units,
    free_units: row.free_units,
    min_rental_period: row.min_rental_period,
    notice_period: row.notice_period,
    deposit: Number(row.deposit),
    photos,
    unit_type: row.unit_type as UnitType | null,
    features: row.features === NONE ? [] : (JSON.parse(row.features) as Feature[]),
    floor: row.floor,
    door:
      row.door_width_m === null || row.door_height_m === null
        ? null
        : { width_m: row.door_width_m, height_m: row.door_height_m },
    promotions: row.promotions === NONE ? [] : (JSON.parse(row.promotions) as ListingPromotion[]),
  };
}
