// The import file's facility fields beyond price: address, coordinates, hours, amenities, fees and protection.
import { z } from 'zod';
import { AMENITIES } from '../../shared/listing.ts';
import { hours } from './hours.ts';
import { billingPeriod } from './periods.ts';
import { country, timeZone } from './places.ts';
import { singleLine } from './text.ts';
import { code, evenWithOtherProblems, uniqueCodes, words } from './vocabulary.ts';

const minor = z
  .int('must be a whole number of minor units')
  .min(0, 'must not be negative')
  .max(1_000_000_000_000, 'must be at most 10^12 minor units');
const vatRate = z
  .number()
  .min(0, 'must not be negative')
  .max(100, 'must be at most 100')
  .refine((v) => Math.abs(v * 10_000 - Math.round(v * 10_000)) < 1e-6, 'must have at most 4 decimals');
const label = () => singleLine().trim().min(1).max(200);
const optionalText = () => singleLine().trim().max(200).nullable().default(null);

export const ImportAddress = z.strictObject({
  street: optionalText(),
  postal_code: optionalText(),
  city: label(),
  region: optionalText(),
  country: country(),
});

export const ImportGeo = z.strictObject({
  lat: z.number().min(-90, 'must be from -90 to 90').max(90, 'must be from -90 to 90'),
  lng: z.number().min(-180, 'must be from -180 to 180').max(180, 'must be from -180 to 180'),
});

export const ImportFee = z.strictObject({
  code: code(),
  title: label(),
  amount_gross: minor,
  vat_rate: vatRate,
  when: z.enum(['move_in', 'move_out'], { error: 'must be one of move_in, move_out' }),
});
export type ImportFee = z.infer<typeof ImportFee>;

export const ImportPlan = z.strictObject({
  code: code(),
  title: label(),
  cover: minor,
  price_gross: minor,
  vat_rate: vatRate,
  period: billingPeriod().default('P1M'),
});
export type ImportPlan = z.infer<typeof ImportPlan>;

export const ImportProtection = z
  .strictObject({ required: z.boolean(), plans: z.array(ImportPlan).max(20) })
  .superRefine((p, ctx) => {
    if (p.required === true && Array.isArray(p.plans) && p.plans.length === 0)
      ctx.addIssue({ code: 'custom', path: ['plans'], message: 'must hold at least one plan when required is true' });
    uniqueCodes(p.plans, ctx, ['plans']);
  }, evenWithOtherProblems);
export type ImportProtection = z.infer<typeof ImportProtection>;

/** The facility fields of the contract's "What the rental page shows beyond price", all optional. */
export const facilityInfoFields = {
  address: ImportAddress.optional(),
  geo: ImportGeo.optional(),
  timezone: timeZone().optional(),
  office_hours: hours().optional(),
  access_hours: hours().optional(),
  amenities: words(AMENITIES).default([]),
  fees: z.array(ImportFee).max(20).default([]),
  protection: ImportProtection.optional(),
};

/** Rules across the fields: hours need their time zone; fee codes are distinct. */
export function checkFacilityInfo(facility: Record<string, unknown>, ctx: z.core.$RefinementCtx<unknown>): void {
  const withHours = ['office_hours', 'access_hours'].filter((field) => facility[field] !== undefined);
  if (withHours.length > 0 && facility.timezone === undefined)
    ctx.addIssue({
      code: 'custom',
      path: ['timezone'],
      message: `must be given with ${withHours.join(' and ')}: the zone their hours are in`,
    });
  uniqueCodes(facility.fees, ctx, ['fees']);
}
