// The comparison demo ranks units by their first three months' cost to a new tenant (move-in and promotions included),
// computed from the answer's schedule and move_in, which the one pricing module makes.
import { describe, expect, it } from 'vitest';
import { firstPeriodsCost, periodGross } from '../demo/pages/first-months.js';
import type { Price } from '../shared/listing.ts';
import type { PricedPromotion } from '../shared/promotions.ts';
import { rentalTermsOf } from '../shared/rental-terms.ts';

const NOW = Date.parse('2026-06-01T00:00:00Z');
const price = (gross: number): Price => ({ gross, net: 0, vat_rate: 23, currency: 'PLN', period: 'P1M' });
const promo = (over: Partial<PricedPromotion>): PricedPromotion => ({
  code: 'P',
  kind: 'percent',
  value: 50,
  from_period: 1,
  to_period: 1,
  starts_at: null,
  ends_at: null,
  ...over,
});
const ADMIN = { code: 'admin', amount_gross: 4900, vat_rate: 23, when: 'move_in' as const };
const PROTECTION = {
  required: true,
  plans: [{ code: 'basic', price_gross: 1500, vat_rate: 23, period: 'P1M' }],
};

function unit(gross: number, promotions: PricedPromotion[], deposit = 0) {
  return rentalTermsOf({ price: price(gross), deposit, promotions, fees: [ADMIN], protection: PROTECTION }, NOW);
}

describe('firstPeriodsCost', () => {
  it('is everything due at move-in, then months 2 and 3 with the required protection', () => {
    const plain = unit(30000, [], 30000);
    // move-in: 300 + 300 deposit + 49 fee + 15 protection; then 2 x (300 + 15)
    expect(firstPeriodsCost(plain)).toBe(30000 + 30000 + 4900 + 1500 + 2 * (30000 + 1500));
  });

  it('counts each promoted period at its promoted price', () => {
    const half3 = unit(30000, [promo({ code: 'HALF3', to_period: 3 })]);
    expect(half3.schedule.map((r) => r.gross)).toEqual([15000, 30000]);
    expect([1, 2, 3, 4].map((n) => periodGross(half3.schedule, n))).toEqual([15000, 15000, 15000, 30000]);
    expect(firstPeriodsCost(half3)).toBe(15000 + 4900 + 1500 + 2 * (15000 + 1500));
  });

  it('ranks a dearer unit with "first month 1 zł" ahead of a cheaper one without, as its 3-month cost says', () => {
    const units = {
      cheaperMonthly: unit(29000, []),
      withOneZloty: unit(31000, [promo({ code: 'ONE', kind: 'fixed_price', value: 100 })]),
      dearest: unit(40000, []),
    };
    const ranked = Object.entries(units)
      .sort(([, a], [, b]) => firstPeriodsCost(a) - firstPeriodsCost(b))
      .map(([name]) => name);
    expect(ranked).toEqual(['withOneZloty', 'cheaperMonthly', 'dearest']);
    // By the monthly price alone the order would be the other way round.
    expect(units.cheaperMonthly.schedule.at(-1)!.gross).toBeLessThan(units.withOneZloty.schedule.at(-1)!.gross);
  });

  it('refuses a schedule that does not cover a period', () => {
    expect(() => periodGross([{ from_period: 1, to_period: 1, gross: 1, net: 1, promotion: null }], 2)).toThrow(
      RangeError,
    );
  });
});
