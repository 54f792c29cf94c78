// What the rental page shows beyond the regular price, as answers write it: promotions, the schedule, move-in, the
// facility's address, hours, fees and protection, and the vocabularies of amenities, features and unit types.
import { z } from 'zod';
import { CurrencyCode, Price } from './money.ts';

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
    description:
      "Due at move-in: the schedule's first period, the deposit (no part when it is 0), each move-in fee and required protection.",
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

/** Money with its VAT, as a price object without a period: what a fee costs. */
export const Amount = z
  .object({
    gross: z.int().describe('Including VAT, in minor units.'),
    net: z.int().describe('Excluding VAT, in minor units: round(gross * 100 / (100 + vat_rate)).'),
    vat_rate: z.number().min(0).max(100),
    currency: CurrencyCode,
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
      .object({ amount: z.int().min(0), currency: CurrencyCode })
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
