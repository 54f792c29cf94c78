// Rules between a facility and its listings: required protection has a plan for each active listing's billing period,
// and a fixed_price promotion costs less than the listing's regular price. They read raw input, as facilityRules does.
import type { z } from 'zod';
import { priceOf, type PricingRule } from '../../shared/pricing.ts';
import { billingPeriod } from './periods.ts';

const items = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
const record = (value: unknown): Record<string, unknown> =>
  typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
const isWhole = (value: unknown): value is number => Number.isSafeInteger(value);
/** The import's bound on an amount in minor units. */
const MAX_MINOR = 1_000_000_000_000;
/** A billing period as the schema reads it (absent is `P1M`), or undefined when it is invalid (a problem of its own). */
const periodOf = (value: unknown): string | undefined => {
  const period = value ?? 'P1M';
  return billingPeriod().safeParse(period).success ? (period as string) : undefined;
};

/** `rules` are the facility's pricing rules when valid, else undefined: what depends on them is not checked then. */
export function checkFacilityListings(
  facility: Record<string, unknown>,
  rules: readonly PricingRule[] | undefined,
  ctx: z.core.$RefinementCtx<unknown>,
): void {
  requiredProtectionFits(facility, ctx);
  if (rules !== undefined) fixedPricesSave(facility, rules, ctx);
}

/** move-in adds the cheapest plan of the listing's period: with none, required protection would silently drop out. */
function requiredProtectionFits(facility: Record<string, unknown>, ctx: z.core.$RefinementCtx<unknown>): void {
  const protection = record(facility.protection);
  if (protection.required !== true) return;
  const plans = items(protection.plans).map((p) => periodOf(record(p).period));
  if (plans.length === 0 || plans.includes(undefined)) return;
  const periods = [...new Set(plans)].join(', ');
  items(facility.listings).forEach((l, i) => {
    const listing = record(l);
    const period = periodOf(listing.price_period);
    if (listing.active !== true || typeof period !== 'string' || plans.includes(period)) return;
    ctx.addIssue({
      code: 'custom',
      path: ['listings', i, 'price_period'],
      message: `must be the period of a protection plan, as protection is required: plans are for period ${periods}`,
    });
  });
}

/**
 * The listing's regular gross as answers price it, or undefined while a field it needs is invalid (a problem of its
 * own, which a price made of it would only obscure).
 */
function regularGrossOf(listing: Record<string, unknown>, rules: readonly PricingRule[]): number | undefined {
  const { price_gross, vat_rate, dynamic_pricing, total_units, free_units } = listing;
  if (!isWhole(price_gross) || price_gross < 0 || price_gross > MAX_MINOR) return undefined;
  if (typeof vat_rate !== 'number' || vat_rate < 0 || vat_rate > 100 || typeof dynamic_pricing !== 'boolean')
    return undefined;
  if (!isWhole(total_units) || !isWhole(free_units) || free_units < 0 || free_units > total_units) return undefined;
  const priced = { price_gross, vat_rate, dynamic_pricing, total_units, free_units, price_period: 'P1M' };
  return priceOf(priced, { currency: 'XXX', pricing_rules: rules }).gross;
}

/** A fixed price at or above the regular one saves nothing, yet would be advertised as a promotion. */
function fixedPricesSave(
  facility: Record<string, unknown>,
  rules: readonly PricingRule[],
  ctx: z.core.$RefinementCtx<unknown>,
): void {
  items(facility.listings).forEach((l, i) => {
    const listing = record(l);
    const fixed = items(listing.promotions)
      .map((p, k) => ({ k, promotion: record(p) }))
      .filter(({ promotion }) => promotion.kind === 'fixed_price' && isWhole(promotion.value));
    if (fixed.length === 0) return;
    const regular = regularGrossOf(listing, rules);
    if (regular === undefined) return;
    for (const { k, promotion } of fixed)
      if ((promotion.value as number) >= regular)
        ctx.addIssue({
          code: 'custom',
          path: ['listings', i, 'promotions', k, 'value'],
          message: `must be below the listing's regular price (${regular}) for kind fixed_price`,
        });
  });
}
