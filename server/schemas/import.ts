// The operator's import file: validated completely here before the store is touched.
import { z } from 'zod';
import type { PricingRule } from '../../shared/pricing.ts';
import { multiLine, singleLine } from './text.ts';
import { httpUrl, urlTemplate } from './urls.ts';
import { checkFacilityInfo, facilityInfoFields } from './facility-info.ts';
import { checkFacilityListings } from './facility-listings.ts';
import { checkListingInfo, listingInfoFields } from './listing-info.ts';
import { phone } from './places.ts';
import { billingPeriod, duration } from './periods.ts';
import { evenWithOtherProblems } from './vocabulary.ts';

const currencies = new Set(Intl.supportedValuesOf('currency'));

/** A percentage with at most 4 decimals, so pricing can compute on exact scaled integers. */
const percent = (min: number, max: number) =>
  z
    .number()
    .min(min)
    .max(max)
    .refine((v) => Math.abs(v * 10_000 - Math.round(v * 10_000)) < 1e-6, 'must have at most 4 decimals');

/**
 * Cross-field rules (free <= total, unique codes and ids) run even when a field of the same object has a problem of
 * its own, so that one run reports every problem in the file. The value may then still hold raw input, so each rule
 * reads it through itemsOf and fieldOf and checks the types it relies on.
 */
const itemsOf = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
const fieldOf = (item: unknown, key: string): unknown =>
  typeof item === 'object' && item !== null ? (item as Record<string, unknown>)[key] : undefined;

const minor = z.int().min(0).max(1_000_000_000_000, 'must be at most 10^12 minor units');

/** A photo's width and height: far above any camera's, far below what a page's markup or a 32-bit column cannot hold. */
const MAX_PIXELS = 100_000;

export const ImportPhoto = z.strictObject({
  url: httpUrl(),
  caption: singleLine().max(500),
  width: z.int().positive().max(MAX_PIXELS, 'must be at most 100,000 pixels').optional(),
  height: z.int().positive().max(MAX_PIXELS, 'must be at most 100,000 pixels').optional(),
});

export const ImportListing = z
  .strictObject({
    code: z
      .string()
      .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/, 'must be 1-64 characters of letters, digits, ".", "_" or "-"'),
    title: singleLine().trim().min(1).max(200),
    active: z.boolean(),
    area_m2: z.number().positive().max(100_000),
    dimensions: z.strictObject({
      width_m: z.number().positive().max(1000),
      depth_m: z.number().positive().max(1000),
      height_m: z.number().positive().max(1000).optional(),
    }),
    description: multiLine().max(10_000),
    price_gross: minor,
    price_period: billingPeriod().default('P1M'),
    vat_rate: percent(0, 100),
    dynamic_pricing: z.boolean(),
    total_units: z.int().min(0).max(1_000_000),
    free_units: z.int().min(0),
    min_rental_period: duration(),
    notice_period: duration(),
    deposit: minor,
    photos: z.array(ImportPhoto).max(100).default([]),
    ...listingInfoFields,
  })
  .superRefine((listing, ctx) => {
    checkListingInfo(listing, ctx);
    const free = fieldOf(listing, 'free_units');
    const total = fieldOf(listing, 'total_units');
    if (typeof free === 'number' && typeof total === 'number' && total >= 0 && free > total) {
      ctx.addIssue({ code: 'custom', path: ['free_units'], message: `must not exceed total_units (${total})` });
    }
  }, evenWithOtherProblems);
export type ImportListing = z.infer<typeof ImportListing>;

export const PricingRuleInput = z.strictObject({
  min_occupancy: z.number().min(0).max(1),
  adjust_pct: percent(-100, 1000),
});
const PricingRules = z.array(PricingRuleInput).max(50);

/** A facility's pricing rules when they are valid (each field, and each tier once), else undefined. */
function validPricingRules(value: unknown): PricingRule[] | undefined {
  const parsed = PricingRules.safeParse(value ?? []);
  if (!parsed.success) return undefined;
  const tiers = new Set(parsed.data.map((r) => r.min_occupancy));
  return tiers.size === parsed.data.length ? parsed.data : undefined;
}

/** A facility's snapshot holds every photo at once: 100 on each of 10,000 listings would be gigabytes of URLs. */
const MAX_PHOTOS_PER_FACILITY = 30_000;

/** The most listings a facility may have. */
export const MAX_LISTINGS = 10_000;

/** RFC 5321's limit on a path, `<` and `>` aside: a longer address cannot be mailed to. */
const MAX_EMAIL_LENGTH = 254;

const facilityFields = {
  id: z.string().regex(/^[a-z0-9-]{1,64}$/, 'must be 1-64 characters of a-z, 0-9 or "-"'),
  name: singleLine().trim().min(1).max(200),
  currency: z
    .string()
    .refine((c) => /^[A-Z]{3}$/.test(c) && currencies.has(c), 'must be a known ISO 4217 currency code'),
  rental_page_url: urlTemplate(true).optional(),
  booking_url: urlTemplate(false)
    .optional()
    .describe("The operator's own booking page: the rental page's Rent button leads there."),
  contact: z
    .strictObject({
      email: z
        .email('must be an email address')
        .max(MAX_EMAIL_LENGTH, `must be at most ${MAX_EMAIL_LENGTH} characters (the longest address SMTP carries)`)
        .optional(),
      phone: phone().optional(),
    })
    .refine((c) => c.email !== undefined || c.phone !== undefined, 'must give an email or a phone')
    .optional()
    .describe('How renters reach the operator to rent, when there is no booking page.'),
  pricing_rules: PricingRules.default([]),
  ...facilityInfoFields,
};

/** Rules across a facility's fields and its listings; they read the listings as raw input (see itemsOf). */
function facilityRules(facility: Record<string, unknown>, ctx: z.core.$RefinementCtx<unknown>): void {
  checkFacilityInfo(facility, ctx);
  checkFacilityListings(facility, validPricingRules(facility.pricing_rules), ctx);
  const photos = itemsOf(facility.listings).reduce<number>((n, l) => n + itemsOf(fieldOf(l, 'photos')).length, 0);
  if (photos > MAX_PHOTOS_PER_FACILITY) {
    const most = MAX_PHOTOS_PER_FACILITY.toLocaleString('en');
    ctx.addIssue({
      code: 'custom',
      path: ['listings'],
      message: `must hold at most ${most} photos in all (they hold ${photos.toLocaleString('en')})`,
    });
  }
  const seen = new Map<string, number>();
  itemsOf(facility.listings).forEach((l, i) => {
    const code = fieldOf(l, 'code');
    if (typeof code !== 'string') return;
    const first = seen.get(code);
    if (first !== undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['listings', i, 'code'],
        message: `duplicate code "${code}" (also at listings[${first}])`,
      });
    } else seen.set(code, i);
  });
  const tiers = new Set<number>();
  itemsOf(facility.pricing_rules).forEach((r, i) => {
    const tier = fieldOf(r, 'min_occupancy');
    if (typeof tier !== 'number') return;
    if (tiers.has(tier))
      ctx.addIssue({ code: 'custom', path: ['pricing_rules', i, 'min_occupancy'], message: 'duplicate tier' });
    tiers.add(tier);
  });
}

export const ImportFacility = z
  .strictObject({ ...facilityFields, listings: z.array(ImportListing).max(MAX_LISTINGS) })
  .superRefine(facilityRules, evenWithOtherProblems);
export type ImportFacility = z.infer<typeof ImportFacility>;

/** Facility ids are distinct in a file. */
function fileRules(file: Record<string, unknown>, ctx: z.core.$RefinementCtx<unknown>): void {
  const seen = new Set<string>();
  itemsOf(file.facilities).forEach((f, i) => {
    const id = fieldOf(f, 'id');
    if (typeof id !== 'string') return;
    if (seen.has(id))
      ctx.addIssue({ code: 'custom', path: ['facilities', i, 'id'], message: `duplicate facility id "${id}"` });
    seen.add(id);
  });
}

export const ImportFile = z
  .strictObject({ facilities: z.array(ImportFacility).min(1) })
  .superRefine(fileRules, evenWithOtherProblems);
export type ImportFile = z.infer<typeof ImportFile>;

/** A key that reads as itself after a dot; any other is quoted and escaped, so that every key can be printed. */
const PLAIN_KEY = /^[A-Za-z_$][\w$]*$/;

/** `facilities[0].listings[3].free_units` from zod's path array (`listings[3]["odd key"]` for other keys). */
export function jsonPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else if (typeof part === 'string' && !PLAIN_KEY.test(part)) out += `[${JSON.stringify(part)}]`;
    else out += out === '' ? String(part) : `.${String(part)}`;
  }
  return out || '(root)';
}

/**
 * One line per problem: `path: rule`, the path from `at` (where the checked value is in the file). An unknown field is
 * named by its own path, not its parent object's.
 */
export function describeIssues(error: z.ZodError, at: readonly PropertyKey[] = []): string[] {
  return error.issues.flatMap((issue) =>
    issue.code === 'unrecognized_keys'
      ? issue.keys.map((key) => `${jsonPath([...at, ...issue.path, key])}: unknown field`)
      : [`${jsonPath([...at, ...issue.path])}: ${issue.message}`],
  );
}

/**
 * The same file and facility with their lists of facilities and listings unchecked, for checking one part at a time
 * (import-check.ts); every rule of theirs is the one above.
 */
export const ImportFileShell = z
  .strictObject({ facilities: z.array(z.unknown()).min(1) })
  .superRefine(fileRules, evenWithOtherProblems);
export const ImportFacilityShell = z
  .strictObject({ ...facilityFields, listings: z.array(z.unknown()).max(MAX_LISTINGS) })
  .superRefine(facilityRules, evenWithOtherProblems);
