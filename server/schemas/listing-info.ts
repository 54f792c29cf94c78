// The import file's listing fields beyond price: unit type, features, floor, door and promotions.
import { z } from 'zod';
import { FEATURES, UNIT_TYPES } from '../../shared/listing.ts';
import { multiLine, singleLine } from './text.ts';
import { code, evenWithOtherProblems, uniqueCodes, word, words } from './vocabulary.ts';

/** Whether an instant's year in UTC is 0001-9999: RFC 3339's years, and all toISOString writes without a sign. */
const inRfc3339Years = (t: string): boolean => {
  const year = new Date(t).getUTCFullYear();
  return Number.isNaN(year) || (year >= 1 && year <= 9999);
};

/** An RFC 3339 instant with its offset, as answers give it: UTC, `Z`, whole seconds. */
const instant = () =>
  z.iso
    .datetime({ offset: true, error: 'must be an RFC 3339 date and time with an offset (2026-12-31T23:00:00Z)' })
    .refine((t) => !/\.\d*[1-9]/.test(t), 'must be in whole seconds')
    .refine(inRfc3339Years, 'must be from 0001-01-01T00:00:00Z to 9999-12-31T23:59:59Z once in UTC')
    .transform((t) => new Date(t).toISOString().replace(/\.\d{3}Z$/, 'Z'))
    .nullable()
    .default(null);

const period = z
  .int('must be a whole number from 1 to 1200')
  .min(1, 'must be at least 1 (periods count from 1)')
  .max(1200);

export const ImportPromotion = z
  .strictObject({
    code: code(),
    title: singleLine().trim().min(1).max(200),
    terms: multiLine().max(2000).nullable().default(null),
    kind: word(['percent', 'amount_off', 'fixed_price']),
    value: z
      .int('must be a whole number')
      .min(0, 'must not be negative')
      .max(1_000_000_000_000, 'must be at most 10^12 (minor units)'),
    from_period: period,
    to_period: period,
    starts_at: instant(),
    ends_at: instant(),
    new_tenants_only: z.boolean().default(true),
  })
  .superRefine((p, ctx) => {
    if (p.kind === 'percent' && typeof p.value === 'number' && (p.value < 1 || p.value > 100))
      ctx.addIssue({
        code: 'custom',
        path: ['value'],
        message: 'must be a whole percent from 1 to 100 (kind percent)',
      });
    // Nothing off saves nothing, yet would be advertised as a promotion (as a fixed_price at the regular price).
    if (p.kind === 'amount_off' && p.value === 0)
      ctx.addIssue({ code: 'custom', path: ['value'], message: 'must be more than 0 for kind amount_off' });
    if (typeof p.from_period === 'number' && typeof p.to_period === 'number' && p.from_period > p.to_period)
      ctx.addIssue({ code: 'custom', path: ['to_period'], message: `must be at least from_period (${p.from_period})` });
    if (
      typeof p.starts_at === 'string' &&
      typeof p.ends_at === 'string' &&
      !(Date.parse(p.ends_at) > Date.parse(p.starts_at))
    )
      ctx.addIssue({ code: 'custom', path: ['ends_at'], message: `must be after starts_at (${p.starts_at})` });
  }, evenWithOtherProblems);
export type ImportPromotion = z.infer<typeof ImportPromotion>;

/** The listing fields of the contract's "What the rental page shows beyond price", all optional. */
export const listingInfoFields = {
  unit_type: word(UNIT_TYPES).optional(),
  features: words(FEATURES).default([]),
  floor: z.int('must be a whole number from -20 to 200').min(-20).max(200).optional(),
  door: z
    .strictObject({ width_m: z.number().positive().max(100), height_m: z.number().positive().max(100) })
    .optional(),
  promotions: z.array(ImportPromotion).max(20).default([]),
};

/** Promotion codes of a listing are distinct: the schedule and move-in name a promotion by its code. */
export function checkListingInfo(listing: Record<string, unknown>, ctx: z.core.$RefinementCtx<unknown>): void {
  uniqueCodes(listing.promotions, ctx, ['promotions']);
}
