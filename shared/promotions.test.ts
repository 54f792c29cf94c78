import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Price, ScheduleRun } from './listing.ts';
import { divideRoundHalfAwayFromZero, netOf } from './pricing.ts';
import {
  isActive,
  nextPromotionChange,
  promotionGross,
  promotionsWithPrices,
  scheduleOf,
  type PricedPromotion,
} from './promotions.ts';

// The reference: the contract's words ("What the rental page shows beyond price"), period by period, as plainly as
// they read. The module prices stretches of periods at once; both must agree.

/** "starts_at is inclusive, ends_at exclusive; a promotion is active when both hold now." */
const referenceActive = (p: PricedPromotion, now: number) =>
  (p.starts_at === null || Date.parse(p.starts_at) <= now) && (p.ends_at === null || now < Date.parse(p.ends_at));

/** "percent (value an integer 1-100), amount_off (gross minor units off each period it covers), fixed_price (the
 * gross price of each period it covers) ... rounded half away from zero, never below 0." */
function referencePromotionGross(p: PricedPromotion, regular: number): number {
  const price =
    p.kind === 'percent'
      ? divideRoundHalfAwayFromZero(BigInt(regular * (100 - p.value)), 100n)
      : p.kind === 'amount_off'
        ? regular - p.value
        : p.value;
  return price < 0 ? 0 : price;
}

/** "A period's price is the lowest of its regular gross and the price under each active promotion covering it (ties:
 * the one listed first) ... promotions never stack." */
function referencePeriod(period: number, regular: number, promotions: PricedPromotion[], now: number) {
  let best = { gross: regular, promotion: null as string | null };
  for (const p of promotions) {
    if (!referenceActive(p, now) || period < p.from_period || period > p.to_period) continue;
    const gross = referencePromotionGross(p, regular);
    if (gross < best.gross) best = { gross, promotion: p.code };
  }
  return best;
}

/** "runs { from_period, to_period, gross, net, promotion } up to the last period any active promotion covers, then one
 * run with to_period: null at the regular price", adjacent equal periods in one run. */
function referenceSchedule(regular: Price, promotions: PricedPromotion[], now: number): ScheduleRun[] {
  const last = Math.max(0, ...promotions.filter((p) => referenceActive(p, now)).map((p) => p.to_period));
  const runs: ScheduleRun[] = [];
  for (let period = 1; period <= last + 1; period++) {
    const { gross, promotion } =
      period <= last
        ? referencePeriod(period, regular.gross, promotions, now)
        : { gross: regular.gross, promotion: null };
    const net = netOf(gross, regular.vat_rate);
    const previous = runs.at(-1);
    if (previous && previous.gross === gross && previous.promotion === promotion) previous.to_period = period;
    else runs.push({ from_period: period, to_period: period, gross, net, promotion });
  }
  runs.at(-1)!.to_period = null;
  return runs;
}

const BASE = Date.parse('2026-06-01T00:00:00Z');
const HOUR = 3_600_000;
/** An instant within two days of BASE, in whole seconds as answers give them. */
const instant = fc.integer({ min: -48, max: 48 }).map((h) => BASE + h * HOUR);
const time = fc.option(
  instant.map((ms) => new Date(ms).toISOString().replace('.000Z', 'Z')),
  { nil: null },
);

const promotion = fc
  .record({
    code: fc.constantFrom('A', 'B', 'C', 'D', 'E'),
    kind: fc.constantFrom('percent', 'amount_off', 'fixed_price' as const),
    value: fc.integer({ min: 0, max: 40_000 }),
    from_period: fc.integer({ min: 1, max: 24 }),
    length: fc.integer({ min: 0, max: 12 }),
    starts_at: time,
    ends_at: time,
  })
  .map(({ length, ...p }): PricedPromotion => ({
    ...p,
    value: p.kind === 'percent' ? 1 + (p.value % 100) : p.value,
    to_period: p.from_period + length,
  }));

const regularPrice: fc.Arbitrary<Price> = fc
  .record({
    gross: fc.integer({ min: 0, max: 500_000 }),
    vat_rate: fc.constantFrom(0, 5, 8.1, 19, 23, 100),
    currency: fc.constant('PLN'),
    period: fc.constant('P1M'),
  })
  .map((p) => ({ ...p, net: netOf(p.gross, p.vat_rate) }));

const promotions = fc.array(promotion, { maxLength: 6 });

describe('scheduleOf, against the reference', () => {
  it('gives the reference schedule: lowest price per period, ties to the first listed, runs merged', () => {
    fc.assert(
      fc.property(regularPrice, promotions, instant, (regular, promos, now) => {
        expect(scheduleOf(regular, promos, now)).toEqual(referenceSchedule(regular, promos, now));
      }),
      { numRuns: 500 },
    );
  });

  it('runs cover periods 1, 2, 3, ... without gap, neighbours differ, and the last is open at the regular price', () => {
    fc.assert(
      fc.property(regularPrice, promotions, instant, (regular, promos, now) => {
        const runs = scheduleOf(regular, promos, now);
        expect(runs[0]!.from_period).toBe(1);
        runs.slice(1).forEach((run, i) => {
          const previous = runs[i]!;
          expect(run.from_period).toBe(previous.to_period! + 1);
          expect([run.gross, run.promotion]).not.toEqual([previous.gross, previous.promotion]);
        });
        expect(runs.at(-1)).toMatchObject({ to_period: null, gross: regular.gross, promotion: null });
        expect(runs.slice(0, -1).every((r) => r.to_period !== null && r.to_period >= r.from_period)).toBe(true);
      }),
    );
  });

  it('never stacks, never goes below 0 or above the regular price, and prices net at the VAT rate', () => {
    fc.assert(
      fc.property(regularPrice, promotions, instant, (regular, promos, now) => {
        for (const run of scheduleOf(regular, promos, now)) {
          expect(run.gross).toBeGreaterThanOrEqual(0);
          expect(run.gross).toBeLessThanOrEqual(regular.gross);
          expect(run.net).toBe(netOf(run.gross, regular.vat_rate));
          if (run.promotion === null) expect(run.gross).toBe(regular.gross);
          // The run's price is exactly one active promotion's own price: no two applied on top of each other.
          else
            expect(
              promos.some(
                (p) =>
                  p.code === run.promotion &&
                  referenceActive(p, now) &&
                  referencePromotionGross(p, regular.gross) === run.gross,
              ),
            ).toBe(true);
        }
      }),
    );
  });
});

describe('promotion prices', () => {
  it('each active promotion, in order, with one period under it alone as a full price object', () => {
    fc.assert(
      fc.property(regularPrice, promotions, instant, (regular, promos, now) => {
        const priced = promotionsWithPrices(promos, regular, now);
        expect(priced.map((p) => p.code)).toEqual(promos.filter((p) => referenceActive(p, now)).map((p) => p.code));
        for (const p of priced) {
          const gross = referencePromotionGross(p, regular.gross);
          expect(p.price).toEqual({ ...regular, gross, net: netOf(gross, regular.vat_rate) });
        }
      }),
    );
  });

  const regular: Price = { gross: 29900, net: 24309, vat_rate: 23, currency: 'PLN', period: 'P1M' };
  const promo = (p: Partial<PricedPromotion>): PricedPromotion => ({
    code: 'X',
    kind: 'percent',
    value: 50,
    from_period: 1,
    to_period: 1,
    starts_at: null,
    ends_at: null,
    ...p,
  });

  it('rounds a half minor unit away from zero', () => {
    expect(promotionGross(promo({ value: 50 }), 2991)).toBe(1496); // 1495.5
    expect(promotionGross(promo({ value: 50 }), 2990)).toBe(1495);
    expect(promotionGross(promo({ value: 15 }), 2990)).toBe(2542); // 2541.5
  });

  it('never goes below 0', () => {
    expect(promotionGross(promo({ kind: 'amount_off', value: 40_000 }), 29900)).toBe(0);
    expect(promotionGross(promo({ value: 100 }), 29900)).toBe(0);
  });

  it('"first month 1 zł, then 50 % off two months": three runs, then the regular price', () => {
    const runs = scheduleOf(
      regular,
      [
        promo({ code: 'ONEZL', kind: 'fixed_price', value: 100 }),
        promo({ code: 'HALF', from_period: 1, to_period: 3 }),
      ],
      BASE,
    );
    expect(runs).toEqual([
      { from_period: 1, to_period: 1, gross: 100, net: 81, promotion: 'ONEZL' },
      { from_period: 2, to_period: 3, gross: 14950, net: 12154, promotion: 'HALF' },
      { from_period: 4, to_period: null, gross: 29900, net: 24309, promotion: null },
    ]);
  });

  it('gives a tie to the promotion listed first, and to the regular price over a promotion that saves nothing', () => {
    const tie = [promo({ code: 'FIRST', kind: 'amount_off', value: 14950 }), promo({ code: 'SECOND' })];
    expect(scheduleOf(regular, tie, BASE)[0]!.promotion).toBe('FIRST');
    expect(scheduleOf(regular, tie.toReversed(), BASE)[0]!.promotion).toBe('SECOND');
    expect(scheduleOf(regular, [promo({ kind: 'fixed_price', value: 29900, to_period: 6 })], BASE)).toEqual([
      { from_period: 1, to_period: null, gross: 29900, net: 24309, promotion: null },
    ]);
  });

  it('is active from starts_at inclusive to ends_at exclusive', () => {
    const p = promo({ starts_at: '2026-06-01T00:00:00Z', ends_at: '2026-06-02T00:00:00Z' });
    expect([BASE - 1, BASE, BASE + 24 * HOUR - 1, BASE + 24 * HOUR].map((t) => isActive(p, t))).toEqual([
      false,
      true,
      true,
      false,
    ]);
  });
});

describe('nextPromotionChange', () => {
  it('is the first start or end after now, and nothing changes before it', () => {
    fc.assert(
      fc.property(promotions, instant, (promos, now) => {
        const times = promos
          .flatMap((p) => [p.starts_at, p.ends_at])
          .flatMap((t) => (t === null ? [] : [Date.parse(t)]));
        const later = times.filter((t) => t > now);
        const next = nextPromotionChange(promos, now);
        expect(next).toBe(later.length ? Math.min(...later) : null);
        const until = next ?? now + 96 * HOUR;
        expect(
          scheduleOf({ gross: 10000, net: 8130, vat_rate: 23, currency: 'PLN', period: 'P1M' }, promos, until - 1),
        ).toEqual(scheduleOf({ gross: 10000, net: 8130, vat_rate: 23, currency: 'PLN', period: 'P1M' }, promos, now));
        for (const p of promos) expect(isActive(p, until - 1)).toBe(isActive(p, now));
      }),
    );
  });

  it('is null when no promotion starts or ends after now', () => {
    expect(nextPromotionChange([], BASE)).toBeNull();
    expect(nextPromotionChange([{ starts_at: null, ends_at: '2026-05-01T00:00:00Z' }], BASE)).toBeNull();
    expect(nextPromotionChange([{ starts_at: '2026-06-01T00:00:00Z', ends_at: null }], BASE)).toBeNull();
  });
});
