// What the rental page shows beyond the regular price, from one call: the active promotions with their period prices,
// the schedule and the cost at move-in. The API, the rental page, the widget, snapshots and the panel all call this.
import type { MoveIn, Price, ScheduleRun } from './listing.ts';
import { moveInOf, type PricedFee, type PricedProtection } from './move-in.ts';
import { promotionsWithPrices, scheduleOf, type PricedPromotion, type PromotionWithPrice } from './promotions.ts';

export interface RentalTermsInput<T extends PricedPromotion> {
  /** The listing's regular price from priceOf (dynamic pricing applied): never changed by promotions. */
  price: Price;
  deposit: number;
  /** The listing's promotions in the operator's order, active or not. */
  promotions: readonly T[];
  /** The facility's fees and protection. */
  fees: readonly PricedFee[];
  protection: PricedProtection | null;
}

export interface RentalTerms<T extends PricedPromotion> {
  promotions: PromotionWithPrice<T>[];
  schedule: ScheduleRun[];
  move_in: MoveIn;
}

/** The listing's promotions, schedule and move-in cost at the instant `now` (milliseconds since the epoch). */
export function rentalTermsOf<T extends PricedPromotion>(input: RentalTermsInput<T>, now: number): RentalTerms<T> {
  const schedule = scheduleOf(input.price, input.promotions, now);
  return {
    promotions: promotionsWithPrices(input.promotions, input.price, now),
    schedule,
    move_in: moveInOf({ ...input, schedule }),
  };
}
