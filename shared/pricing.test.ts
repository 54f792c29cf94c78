import { describe, expect, it } from 'vitest';
import { adjustmentFor, divideRoundHalfAwayFromZero, occupancyOf, priceOf, type PricedListing } from './pricing.ts';

const facility = {
  currency: 'PLN',
  pricing_rules: [
    { min_occupancy: 0.5, adjust_pct: 5 },
    { min_occupancy: 0.8, adjust_pct: 10 },
    { min_occupancy: 0, adjust_pct: -10 },
  ],
};
const base: PricedListing = {
  price_gross: 10000,
  price_period: 'P1M',
  vat_rate: 23,
  dynamic_pricing: true,
  total_units: 10,
  free_units: 5,
};

describe('occupancy', () => {
  it('is used over total units, 0 when there are none', () => {
    expect(occupancyOf({ total_units: 10, free_units: 3 })).toBe(0.7);
    expect(occupancyOf({ total_units: 10, free_units: 10 })).toBe(0);
    expect(occupancyOf({ total_units: 10, free_units: 0 })).toBe(1);
    expect(occupancyOf({ total_units: 0, free_units: 0 })).toBe(0);
  });
});

describe('adjustmentFor', () => {
  it('picks the greatest tier at or below the occupancy', () => {
    expect(adjustmentFor(0.8, facility.pricing_rules)).toBe(10);
    expect(adjustmentFor(0.79, facility.pricing_rules)).toBe(5);
    expect(adjustmentFor(0.5, facility.pricing_rules)).toBe(5);
    expect(adjustmentFor(0.49, facility.pricing_rules)).toBe(-10);
    expect(adjustmentFor(1, facility.pricing_rules)).toBe(10);
  });
  it('is 0 when no rule applies', () => {
    expect(adjustmentFor(0.3, [{ min_occupancy: 0.5, adjust_pct: 5 }])).toBe(0);
    expect(adjustmentFor(0.9, [])).toBe(0);
  });
});

describe('priceOf', () => {
  it('applies the tier exactly on its boundary (8 of 10 taken = 0.8)', () => {
    const p = priceOf({ ...base, free_units: 2 }, facility);
    expect(p).toEqual({ gross: 11000, net: 8943, vat_rate: 23, currency: 'PLN', period: 'P1M' });
  });
  it('all units free: occupancy 0 takes the 0 tier (a negative adjustment)', () => {
    expect(priceOf({ ...base, free_units: 10 }, facility).gross).toBe(9000);
  });
  it('no units free: occupancy 1 takes the top tier', () => {
    expect(priceOf({ ...base, free_units: 0 }, facility).gross).toBe(11000);
  });
  it('0 total units counts as occupancy 0', () => {
    expect(priceOf({ ...base, total_units: 0, free_units: 0 }, facility).gross).toBe(9000);
  });
  it('a static listing keeps its base price whatever the occupancy', () => {
    expect(priceOf({ ...base, dynamic_pricing: false, free_units: 0 }, facility).gross).toBe(10000);
  });
  it('VAT 0 makes net equal gross', () => {
    const p = priceOf({ ...base, vat_rate: 0, dynamic_pricing: false }, facility);
    expect(p.net).toBe(p.gross);
  });
  it('VAT 8.1 (Swiss) rounds net from gross', () => {
    // 10000 * 100 / 108.1 = 9250.69... -> 9251
    expect(
      priceOf({ ...base, vat_rate: 8.1, dynamic_pricing: false }, { currency: 'CHF', pricing_rules: [] }).net,
    ).toBe(9251);
  });
  it('rounds a half minor unit away from zero for gross', () => {
    // 2990 * 1.05 = 3139.5 -> 3140; 1 * 0.5 -> 1 with -50 %
    expect(priceOf({ ...base, price_gross: 2990, free_units: 4 }, facility).gross).toBe(3140);
    const halve = { currency: 'EUR', pricing_rules: [{ min_occupancy: 0, adjust_pct: -50 }] };
    expect(priceOf({ ...base, price_gross: 1, vat_rate: 0 }, halve).gross).toBe(1);
    expect(priceOf({ ...base, price_gross: 3, vat_rate: 0 }, halve).gross).toBe(2);
  });
  it('rounds a half minor unit away from zero for net', () => {
    // gross 25 at VAT 25: 25 * 100 / 125 = 20 exactly; gross 205 at VAT 2.5: 200 exactly; gross 21 at VAT 5: 20
    // 2.5 / 1 case: gross 5 with VAT 100 -> 2.5 -> 3
    expect(priceOf({ ...base, price_gross: 5, vat_rate: 100, dynamic_pricing: false }, facility).net).toBe(3);
    expect(priceOf({ ...base, price_gross: 7, vat_rate: 100, dynamic_pricing: false }, facility).net).toBe(4);
  });
  it('uses fractional adjustments exactly, without float drift', () => {
    // 29900 * 1.075 = 32142.5 -> 32143
    const rules = { currency: 'PLN', pricing_rules: [{ min_occupancy: 0, adjust_pct: 7.5 }] };
    expect(priceOf({ ...base, price_gross: 29900 }, rules).gross).toBe(32143);
  });
});

describe('divideRoundHalfAwayFromZero', () => {
  it('rounds halves away from zero on both signs', () => {
    expect(divideRoundHalfAwayFromZero(5n, 2n)).toBe(3);
    expect(divideRoundHalfAwayFromZero(-5n, 2n)).toBe(-3);
    expect(divideRoundHalfAwayFromZero(7n, 3n)).toBe(2);
    expect(divideRoundHalfAwayFromZero(-7n, 3n)).toBe(-2);
  });
});
