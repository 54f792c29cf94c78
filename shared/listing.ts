// The public JSON contract: the shapes every answer (API, snapshot, widget) speaks, and the source of the OpenAPI document.
import { z } from 'zod';

const isoDuration = z
  .string()
  .regex(
    /^P(?!$)(\d+Y)?(\d+M)?(\d+W)?(\d+D)?$/,
    'must be an ISO 8601 duration of whole years, months, weeks or days (P1M, P14D, P1W)',
  );

export const Price = z
  .object({
    gross: z.int().describe('Price including VAT, in minor units (cents, grosze).'),
    net: z.int().describe('Price excluding VAT, in minor units: round(gross * 100 / (100 + vat_rate)).'),
    vat_rate: z.number().min(0).max(100).describe('VAT as a percentage (23, 8.1, 0).'),
    currency: z
      .string()
      .regex(/^[A-Z]{3}$/)
      .describe('ISO 4217 currency code.'),
    period: isoDuration.describe('Billing period as an ISO 8601 duration (P1M = per month).'),
  })
  .meta({ id: 'Price' });
export type Price = z.infer<typeof Price>;

export const CoverPhoto = z.object({ url: z.string(), caption: z.string() }).meta({ id: 'CoverPhoto' });
export type CoverPhoto = z.infer<typeof CoverPhoto>;

export const Photo = z
  .object({
    url: z.string(),
    caption: z.string(),
    width: z.int().positive().nullable().describe('Pixel width, when the operator supplied it.'),
    height: z.int().positive().nullable().describe('Pixel height, when the operator supplied it.'),
  })
  .meta({ id: 'Photo' });
export type Photo = z.infer<typeof Photo>;

export const Dimensions = z
  .object({
    width_m: z.number().positive(),
    depth_m: z.number().positive(),
    height_m: z.number().positive().nullable(),
  })
  .meta({ id: 'Dimensions' });
export type Dimensions = z.infer<typeof Dimensions>;

const minorUnits = z.int().min(0);

export const PromotionKind = z
  .enum(['percent', 'amount_off', 'fixed_price'])
  .describe(
    '`percent`: `value` % off each period it covers; `amount_off`: `value` minor units off each; `fixed_price`: each costs `value`.',
  );
export type PromotionKind = z.infer<typeof PromotionKind>;

export const ScheduleRun = z
  .object({
    from_period: z.int().min(1).describe('The first billing period of the run, counted from 1.'),
    to_period: z
      .int()
      .min(1)
      .nullable()
      .describe('The last billing period of the run; null on the last run, which goes on at the regular price.'),
    gross: minorUnits.describe('The price of each period of the run, VAT included, in minor units.'),
    net: minorUnits.describe('The same excluding VAT: round(gross * 100 / (100 + vat_rate)).'),
    promotion: z
      .string()
      .nullable()
      .describe('The code of the promotion that sets the price, or null: the regular price.'),
  })
  .meta({ id: 'ScheduleRun' });
export type ScheduleRun = z.infer<typeof ScheduleRun>;

export const MoveInPartKind = z.enum(['first_period', 'deposit', 'fee', 'protection']);
export type MoveInPartKind = z.infer<typeof MoveInPartKind>;

export const MoveInPart = z
  .object({
    kind: MoveInPartKind,
    code: z
      .string()
      .nullable()
      .describe("The fee's or protection plan's code; the first period's promotion, or null; null for the deposit."),
    gross: minorUnits,
    net: minorUnits.describe("Rounded at this part's own VAT rate."),
    vat_rate: z.number().min(0).max(100).describe('0 for the deposit, which carries no VAT.'),
  })
  .meta({ id: 'MoveInPart' });
export type MoveInPart = z.infer<typeof MoveInPart>;

export const MoveIn = z
  .object({
    gross: minorUnits.describe("The sum of the parts' gross amounts."),
    net: minorUnits.describe("The sum of the parts' net amounts."),
    currency: z.string().regex(/^[A-Z]{3}$/),
    parts: z.array(MoveInPart),
  })
  .meta({
    id: 'MoveIn',
    description: "Due at move-in: the schedule's first period, the deposit, each move-in fee and required protection.",
  });
export type MoveIn = z.infer<typeof MoveIn>;

export const Promotion = z
  .object({
    code: z.string(),
    title: z.string(),
    terms: z.string().nullable(),
    kind: PromotionKind,
    value: z.int().min(0),
    from_period: z.int().min(1).describe('The first billing period it covers, counted from 1.'),
    to_period: z.int().min(1).describe('The last billing period it covers.'),
    starts_at: z.iso.datetime().nullable().describe('Inclusive; UTC with Z and whole seconds.'),
    ends_at: z.iso.datetime().nullable().describe('Exclusive; UTC with Z and whole seconds.'),
    new_tenants_only: z.boolean().describe("Information for the renter: every price shown is a new tenant's."),
    price: Price.describe("One period's price under this promotion alone."),
  })
  .meta({ id: 'Promotion' });
export type Promotion = z.infer<typeof Promotion>;

/** The contract's vocabularies: an import word outside them is refused, so answers only ever carry these. */
export const AMENITIES = [
  'cctv',
  'gated',
  'alarm',
  'on_site_staff',
  'loading_bay',
  'trolleys',
  'elevator',
  'parking',
  'packing_supplies',
  'wifi',
] as const;
export const FEATURES = [
  'climate_controlled',
  'heated',
  'indoor',
  'outdoor',
  'drive_up',
  'ground_floor',
  'elevator_access',
  'power',
  'lighting',
  'alarmed',
  'shelving',
  'roll_up_door',
] as const;
export const UNIT_TYPES = [
  'locker',
  'small',
  'medium',
  'large',
  'xl',
  'parking',
  'container',
  'wine',
  'archive',
] as const;
export const DAYS = ['mo', 'tu', 'we', 'th', 'fr', 'sa', 'su'] as const;

export const Amenity = z.enum(AMENITIES).meta({ id: 'Amenity' });
export type Amenity = z.infer<typeof Amenity>;
export const Feature = z.enum(FEATURES).meta({ id: 'Feature' });
export type Feature = z.infer<typeof Feature>;
export const UnitType = z.enum(UNIT_TYPES).meta({ id: 'UnitType' });
export type UnitType = z.infer<typeof UnitType>;
export type Day = (typeof DAYS)[number];

const currencyCode = z
  .string()
  .regex(/^[A-Z]{3}$/)
  .describe('ISO 4217 currency code.');

/** Money with its VAT, as a price object without a period: what a fee costs. */
export const Amount = z
  .object({
    gross: z.int().describe('Including VAT, in minor units.'),
    net: z.int().describe('Excluding VAT, in minor units: round(gross * 100 / (100 + vat_rate)).'),
    vat_rate: z.number().min(0).max(100),
    currency: currencyCode,
  })
  .meta({ id: 'Amount' });
export type Amount = z.infer<typeof Amount>;

export const Address = z
  .object({
    street: z.string().nullable(),
    postal_code: z.string().nullable(),
    city: z.string(),
    region: z.string().nullable(),
    country: z
      .string()
      .regex(/^[A-Z]{2}$/)
      .describe('ISO 3166-1 alpha-2.'),
  })
  .meta({ id: 'Address' });
export type Address = z.infer<typeof Address>;

export const Geo = z
  .object({ lat: z.number().min(-90).max(90), lng: z.number().min(-180).max(180) })
  .meta({ id: 'Geo' });
export type Geo = z.infer<typeof Geo>;

export const Contact = z
  .object({ email: z.string().nullable(), phone: z.string().nullable().describe('E.164.') })
  .meta({ id: 'Contact' });
export type Contact = z.infer<typeof Contact>;

const hourRanges = z
  .array(z.string().regex(/^([01]\d|2[0-3]):[0-5]\d-(([01]\d|2[0-3]):[0-5]\d|24:00)$/))
  .describe("`HH:MM-HH:MM` ranges in the facility's time zone, in order; [] = closed.");

export const Hours = z
  .object({
    mo: hourRanges,
    tu: hourRanges,
    we: hourRanges,
    th: hourRanges,
    fr: hourRanges,
    sa: hourRanges,
    su: hourRanges,
  })
  .meta({ id: 'Hours', description: 'Every day of the week; 24/7 is `["00:00-24:00"]` each day.' });
export type Hours = z.infer<typeof Hours>;

export const Fee = z
  .object({
    code: z.string(),
    title: z.string(),
    when: z.enum(['move_in', 'move_out']),
    amount: Amount,
  })
  .meta({ id: 'Fee' });
export type Fee = z.infer<typeof Fee>;

export const ProtectionPlan = z
  .object({
    code: z.string(),
    title: z.string(),
    cover: z
      .object({ amount: z.int().min(0), currency: currencyCode })
      .describe('What the plan covers, in minor units (no VAT).'),
    price: Price,
  })
  .meta({ id: 'ProtectionPlan' });
export type ProtectionPlan = z.infer<typeof ProtectionPlan>;

export const Protection = z
  .object({
    required: z.boolean().describe('Whether a renter must take a plan (the cheapest one is then part of move_in).'),
    plans: z.array(ProtectionPlan),
  })
  .meta({ id: 'Protection' });
export type Protection = z.infer<typeof Protection>;

/** Everything the rental page shows about the facility: the list's `facility` object. */
export const FacilityInfo = z
  .object({
    id: z.string(),
    name: z.string(),
    address: Address.nullable(),
    geo: Geo.nullable(),
    contact: Contact.nullable(),
    timezone: z.string().nullable().describe('IANA time zone of the hours.'),
    office_hours: Hours.nullable(),
    access_hours: Hours.nullable(),
    amenities: z.array(Amenity),
    fees: z.array(Fee),
    protection: Protection.nullable(),
  })
  .meta({ id: 'FacilityInfo' });
export type FacilityInfo = z.infer<typeof FacilityInfo>;

export const Door = z.object({ width_m: z.number().positive(), height_m: z.number().positive() }).meta({ id: 'Door' });
export type Door = z.infer<typeof Door>;

export const Summary = z
  .object({
    id: z
      .string()
      .regex(/^lst_[0-9a-f]{20}$/)
      .describe('Stable listing id (same facility and code give the same id).'),
    code: z.string(),
    title: z.string(),
    area_m2: z.number().positive(),
    price: Price,
    dynamic_pricing: z.boolean().describe('Whether the price comes from dynamic (occupancy-based) pricing.'),
    free_units: z.int().min(0),
    rent_url: z.string().describe("The operator's rental page for this listing: where a rent button links."),
    cover_photo: CoverPhoto.nullable().describe('The first photo, or null when the listing has none.'),
  })
  .meta({ id: 'Summary' });
export type Summary = z.infer<typeof Summary>;

export const Detail = Summary.extend({
  dimensions: Dimensions,
  description: z.string(),
  min_rental_period: isoDuration,
  notice_period: isoDuration,
  deposit: z.object({ amount: z.int().min(0), currency: z.string().regex(/^[A-Z]{3}$/) }),
  photos: z.array(Photo),
}).meta({ id: 'Detail' });
export type Detail = z.infer<typeof Detail>;

export const FacilityRef = z.object({ id: z.string(), name: z.string() }).meta({ id: 'FacilityRef' });
export type FacilityRef = z.infer<typeof FacilityRef>;

export const ListResponse = z
  .object({ facility: FacilityRef, listings: z.array(Summary) })
  .meta({ id: 'ListResponse' });
export type ListResponse = z.infer<typeof ListResponse>;

export const ProblemCode = z.enum([
  'missing_api_key',
  'invalid_api_key',
  'revoked_api_key',
  'origin_not_allowed',
  'not_found',
  'method_not_allowed',
  'invalid_parameter',
  'uri_too_long',
  'bad_request',
  'request_timeout',
  'headers_too_large',
  'rate_limited',
  'internal_error',
  'database_unavailable',
]);
export type ProblemCode = z.infer<typeof ProblemCode>;

export const Problem = z
  .object({
    type: z.string().describe('A URI that identifies the problem type.'),
    title: z.string(),
    status: z.int().min(400).max(599),
    detail: z.string(),
    code: ProblemCode,
  })
  .meta({ id: 'Problem' });
export type Problem = z.infer<typeof Problem>;

/** A signed static snapshot of one facility (`OUT/<facility>/listings.json`). */
export const Snapshot = z
  .object({
    facility: FacilityRef,
    listings: z.array(Detail),
    version: z.int().positive(),
    generated_at: z.iso.datetime(),
    expires_at: z.iso.datetime(),
    kid: z.string(),
  })
  .meta({ id: 'Snapshot' });
export type Snapshot = z.infer<typeof Snapshot>;

/** The detached signature beside a snapshot (`listings.json.sig`). */
export const SnapshotSignature = z.object({
  alg: z.literal('EdDSA'),
  kid: z.string(),
  sig: z.string().regex(/^[A-Za-z0-9_-]+$/),
});
export type SnapshotSignature = z.infer<typeof SnapshotSignature>;

export const Jwk = z.object({ kty: z.literal('OKP'), crv: z.literal('Ed25519'), x: z.string(), kid: z.string() });
export type Jwk = z.infer<typeof Jwk>;
export const Jwks = z.object({ keys: z.array(Jwk) });
export type Jwks = z.infer<typeof Jwks>;

export { isoDuration as IsoDuration };
