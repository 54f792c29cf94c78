// A listing and its facility as the widget reads them: the contract's Summary and Detail with what the rental page
// shows beyond price, each field optional so that an answer without one still shows.
import { cheapestPlan } from '../../shared/move-in.ts';
import type {
  Detail,
  Door,
  Fee,
  FacilityInfo,
  Feature,
  MoveIn,
  Promotion,
  Protection,
  ProtectionPlan,
  ScheduleRun,
  Summary,
  UnitType,
} from '../../shared/listing.ts';

/** What a card reads: a Summary, with the richer fields when the answer carries them. */
export type Listing = Summary & {
  unit_type?: UnitType | null;
  features?: Feature[];
  promotions?: Promotion[];
  schedule?: ScheduleRun[];
  move_in?: MoveIn | null;
};

/** What the details dialog reads: a Detail, with the richer fields (and the facility's fees and protection). */
export type ListingDetail = Detail &
  Listing & {
    floor?: number | null;
    door?: Door | null;
    fees?: Fee[];
    protection?: Protection | null;
  };

/** The list's or snapshot's `facility` object: its id and name always, the rest when the answer carries it. */
export type Facility = Pick<FacilityInfo, 'id' | 'name'> & Partial<FacilityInfo>;

/** A listing's promotions (each with its period price), schedule and move-in cost, at one instant. */
export interface Terms {
  promotions: Promotion[];
  schedule: ScheduleRun[];
  move_in: MoveIn | null;
}

/** The array an answer gives, or none: a malformed field shows as absent rather than throw while rendering. */
export const arrayOf = <T>(value: readonly T[] | null | undefined): T[] => (Array.isArray(value) ? value : []);

/** The terms an answer carries, as given (the live API's: computed by the server for the instant it answered). */
export function termsGiven(listing: Listing): Terms {
  const { promotions, schedule, move_in } = listing;
  return {
    promotions: arrayOf(promotions),
    schedule: arrayOf(schedule),
    move_in: move_in && Array.isArray(move_in.parts) ? move_in : null,
  };
}

/** The promotion that sets the first promoted period's price (promotions never stack), or undefined. */
export function winningPromotion(terms: Terms): Promotion | undefined {
  const code = terms.schedule.find((run) => run.promotion !== null)?.promotion;
  return terms.promotions.find((p) => p.code === code && p.price);
}

/** A plan as the pricing module compares plans, with the answer's plan beside it. */
export const pricedPlan = (plan: ProtectionPlan) => ({
  plan,
  code: plan.code,
  price_gross: plan.price.gross,
  vat_rate: plan.price.vat_rate,
  period: plan.price.period,
});

/** The plan a renter would take: the cheapest billed per the listing's period (shared/move-in.ts), or undefined. */
export function cheapestPlanOf(protection: Protection, period: string): ProtectionPlan | undefined {
  return cheapestPlan(protection.plans.map(pricedPlan), period)?.plan;
}
