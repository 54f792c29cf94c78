// The one pricing function: every answer (API, rental page, snapshot) gets its price from priceOf, and every net from netOf.
import type { Price } from './listing.ts';

export interface PricingRule {
  min_occupancy: number;
  adjust_pct: number;
}

/** What pricing needs to know about a listing: the operator's base price and its occupancy. */
export interface PricedListing {
  price_gross: number;
  price_period: string;
  vat_rate: number;
  dynamic_pricing: boolean;
  total_units: number;
  free_units: number;
}

export interface PricedFacility {
  currency: string;
  pricing_rules: readonly PricingRule[];
}

/** Percentages are scaled to integers (4 decimals) so that rounding works on exact rationals, not floats. */
const SCALE = 10_000n;
const HUNDRED = 100n * SCALE;

export function scaledPercent(pct: number): bigint {
  return BigInt(Math.round(pct * Number(SCALE)));
}

/** num / den rounded to a whole number, halves away from zero, computed exactly. */
export function divideRoundHalfAwayFromZero(num: bigint, den: bigint): number {
  const negative = num < 0n !== den < 0n;
  const n = num < 0n ? -num : num;
  const d = den < 0n ? -den : den;
  let q = n / d;
  if (2n * (n - q * d) >= d) q += 1n;
  return Number(negative ? -q : q);
}

export function occupancyOf(listing: Pick<PricedListing, 'total_units' | 'free_units'>): number {
  if (listing.total_units <= 0) return 0;
  return (listing.total_units - listing.free_units) / listing.total_units;
}

/** The rule with the greatest min_occupancy that is <= occupancy; 0 when none applies. */
export function adjustmentFor(occupancy: number, rules: readonly PricingRule[]): number {
  let best: PricingRule | undefined;
  for (const rule of rules) {
    if (rule.min_occupancy <= occupancy && (best === undefined || rule.min_occupancy > best.min_occupancy)) best = rule;
  }
  return best?.adjust_pct ?? 0;
}

export function priceOf(listing: PricedListing, facility: PricedFacility): Price {
  const adjust = listing.dynamic_pricing ? adjustmentFor(occupancyOf(listing), facility.pricing_rules) : 0;
  const gross = listing.dynamic_pricing
    ? divideRoundHalfAwayFromZero(BigInt(listing.price_gross) * (HUNDRED + scaledPercent(adjust)), HUNDRED)
    : listing.price_gross;
  return {
    gross,
    net: netOf(gross, listing.vat_rate),
    vat_rate: listing.vat_rate,
    currency: facility.currency,
    period: listing.price_period,
  };
}

/** round(gross * 100 / (100 + vat_rate)), halves away from zero: every net amount, of a price or of a part. */
export function netOf(gross: number, vatRate: number): number {
  return divideRoundHalfAwayFromZero(BigInt(gross) * HUNDRED, HUNDRED + scaledPercent(vatRate));
}
