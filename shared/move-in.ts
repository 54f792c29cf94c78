// What a new tenant pays at move-in: the schedule's first period, the deposit, each move-in fee and required protection.
import type { MoveIn, MoveInPart, Price, ScheduleRun } from './listing.ts';
import { netOf } from './pricing.ts';

/** What pricing needs to know about one of the facility's fees. */
export interface PricedFee {
  code: string;
  amount_gross: number;
  vat_rate: number;
  when: 'move_in' | 'move_out';
}

/** What pricing needs to know about a protection plan. */
export interface PricedPlan {
  code: string;
  price_gross: number;
  vat_rate: number;
  /** ISO 8601 duration the price is for: only plans billed like the listing compare with it. */
  period: string;
}

export interface PricedProtection {
  required: boolean;
  plans: readonly PricedPlan[];
}

/** The lowest-priced plan billed per the listing's period (ties: the one listed first), or undefined when none is. */
export function cheapestPlan<T extends PricedPlan>(plans: readonly T[], pricePeriod: string): T | undefined {
  let cheapest: T | undefined;
  for (const plan of plans) {
    if (plan.period === pricePeriod && (cheapest === undefined || plan.price_gross < cheapest.price_gross)) {
      cheapest = plan;
    }
  }
  return cheapest;
}

export interface MoveInTerms {
  /** The listing's regular price, from priceOf: its VAT rate, currency and billing period. */
  price: Price;
  /** The listing's schedule, from scheduleOf: its first run is the first period's price. */
  schedule: readonly ScheduleRun[];
  /** Minor units of the price's currency; carries no VAT. */
  deposit: number;
  fees: readonly PricedFee[];
  protection: PricedProtection | null;
}

const part = (kind: MoveInPart['kind'], code: string | null, gross: number, vatRate: number): MoveInPart => ({
  kind,
  code,
  gross,
  net: netOf(gross, vatRate),
  vat_rate: vatRate,
});

/** The parts due at move-in, each net at its own VAT rate, and their sums. A deposit of 0 is no part. */
export function moveInOf(terms: MoveInTerms): MoveIn {
  const { price, schedule, deposit, fees, protection } = terms;
  const first = schedule[0];
  const parts = [part('first_period', first?.promotion ?? null, first?.gross ?? price.gross, price.vat_rate)];
  if (deposit > 0) parts.push(part('deposit', null, deposit, 0));
  for (const fee of fees) if (fee.when === 'move_in') parts.push(part('fee', fee.code, fee.amount_gross, fee.vat_rate));
  const plan = protection?.required ? cheapestPlan(protection.plans, price.period) : undefined;
  if (plan !== undefined) parts.push(part('protection', plan.code, plan.price_gross, plan.vat_rate));
  return {
    gross: parts.reduce((sum, p) => sum + p.gross, 0),
    net: parts.reduce((sum, p) => sum + p.net, 0),
    currency: price.currency,
    parts,
  };
}
