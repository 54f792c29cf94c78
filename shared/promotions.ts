// Promotions over the regular price: which are active at an instant, each one's period price, the schedule a new tenant
// pays, and the next instant any of them starts or ends.
import type { Price, PromotionKind, ScheduleRun } from './listing.ts';
import { divideRoundHalfAwayFromZero, netOf } from './pricing.ts';

/** What pricing needs to know about a promotion; answers carry the rest of its fields unchanged. */
export interface PricedPromotion {
  code: string;
  kind: PromotionKind;
  /** percent: 1-100; amount_off and fixed_price: gross minor units. */
  value: number;
  /** Billing periods counted from 1, both inclusive. */
  from_period: number;
  to_period: number;
  /** RFC 3339 instants; starts_at inclusive, ends_at exclusive, null = unbounded. */
  starts_at: string | null;
  ends_at: string | null;
}

/** A promotion as answers carry it: its own fields and one period's price under it alone. */
export type PromotionWithPrice<T extends PricedPromotion> = T & { price: Price };

/** Milliseconds since the epoch of an RFC 3339 instant, or of none (an unbounded end). */
const instantOf = (time: string | null): number | null => (time === null ? null : Date.parse(time));

export function isActive(promotion: Pick<PricedPromotion, 'starts_at' | 'ends_at'>, now: number): boolean {
  const starts = instantOf(promotion.starts_at);
  const ends = instantOf(promotion.ends_at);
  return (starts === null || starts <= now) && (ends === null || now < ends);
}

export function activePromotions<T extends PricedPromotion>(promotions: readonly T[], now: number): T[] {
  return promotions.filter((p) => isActive(p, now));
}

/** One period's gross under this promotion alone, rounded half away from zero, never below 0. */
export function promotionGross(promotion: Pick<PricedPromotion, 'kind' | 'value'>, regularGross: number): number {
  switch (promotion.kind) {
    case 'percent':
      return Math.max(0, divideRoundHalfAwayFromZero(BigInt(regularGross) * BigInt(100 - promotion.value), 100n));
    case 'amount_off':
      return Math.max(0, regularGross - promotion.value);
    case 'fixed_price':
      return Math.max(0, promotion.value);
  }
}

/** The full price object of one period under this promotion alone, in the regular price's VAT, currency and period. */
export function promotionPrice(promotion: Pick<PricedPromotion, 'kind' | 'value'>, regular: Price): Price {
  const gross = promotionGross(promotion, regular.gross);
  return { ...regular, gross, net: netOf(gross, regular.vat_rate) };
}

/** The active promotions, each with its period price, in the operator's order. */
export function promotionsWithPrices<T extends PricedPromotion>(
  promotions: readonly T[],
  regular: Price,
  now: number,
): PromotionWithPrice<T>[] {
  return activePromotions(promotions, now).map((p) => ({ ...p, price: promotionPrice(p, regular) }));
}

/**
 * The periods a new tenant pays, as runs of equal price: a period costs the lowest of the regular gross and each active
 * promotion covering it (ties: the regular price, then the promotion listed first; promotions never stack). Runs go up
 * to the last period any active promotion covers, then one open run (`to_period: null`) at the regular price.
 */
export function scheduleOf(regular: Price, promotions: readonly PricedPromotion[], now: number): ScheduleRun[] {
  const active = activePromotions(promotions, now);
  // Which promotions cover a period changes only where one begins or ends: price each stretch between those once.
  const starts = [...new Set([1, ...active.flatMap((p) => [p.from_period, p.to_period + 1])])]
    .filter((period) => period >= 1)
    .sort((a, b) => a - b);
  const runs: ScheduleRun[] = [];
  starts.forEach((from, i) => {
    const next = starts[i + 1];
    let gross = regular.gross;
    let promotion: string | null = null;
    for (const p of active) {
      if (p.from_period > from || p.to_period < from) continue;
      const candidate = promotionGross(p, regular.gross);
      if (candidate < gross) [gross, promotion] = [candidate, p.code];
    }
    const last = runs.at(-1);
    if (last !== undefined && last.gross === gross && last.promotion === promotion) {
      last.to_period = next === undefined ? null : next - 1;
    } else {
      runs.push({ from_period: from, to_period: next === undefined ? null : next - 1, gross, net: 0, promotion });
    }
  });
  for (const run of runs) run.net = netOf(run.gross, regular.vat_rate);
  return runs;
}

/** The first instant after `now` at which any of these promotions starts or ends, or null when none ever will. */
export function nextPromotionChange(
  promotions: Iterable<Pick<PricedPromotion, 'starts_at' | 'ends_at'>>,
  now: number,
): number | null {
  let next: number | null = null;
  for (const p of promotions) {
    for (const time of [instantOf(p.starts_at), instantOf(p.ends_at)]) {
      if (time !== null && time > now && (next === null || time < next)) next = time;
    }
  }
  return next;
}
