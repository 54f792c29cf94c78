import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { MoveIn, Price } from './listing.ts';
import { cheapestPlan, moveInOf, type MoveInTerms, type PricedFee, type PricedPlan } from './move-in.ts';
import { netOf, priceOf } from './pricing.ts';
import { rentalTermsOf } from './rental-terms.ts';
import { scheduleOf, type PricedPromotion } from './promotions.ts';

// The reference: the contract's words on "Due at move-in", as plainly as they read; each net from netOf, the one
// net formula (pricing.test.ts), at the part's own VAT rate.

/** "parts of kind first_period (the schedule's first price), deposit (no VAT), fee (each move_in fee, its code) and
 * protection (when protection is required: the cheapest plan, its code); gross and net are the sums of the parts."
 * "The cheapest plan is the lowest price_gross among plans whose period equals the listing's price_period." */
function referenceMoveIn(t: MoveInTerms): MoveIn {
  const parts = [];
  const first = t.schedule[0]!;
  parts.push({
    kind: 'first_period' as const,
    code: first.promotion,
    gross: first.gross,
    net: netOf(first.gross, t.price.vat_rate),
    vat_rate: t.price.vat_rate,
  });
  if (t.deposit > 0)
    parts.push({ kind: 'deposit' as const, code: null, gross: t.deposit, net: t.deposit, vat_rate: 0 });
  for (const fee of t.fees.filter((f) => f.when === 'move_in'))
    parts.push({
      kind: 'fee' as const,
      code: fee.code,
      gross: fee.amount_gross,
      net: netOf(fee.amount_gross, fee.vat_rate),
      vat_rate: fee.vat_rate,
    });
  if (t.protection?.required) {
    const plans = t.protection.plans.filter((p) => p.period === t.price.period);
    const lowest = Math.min(...plans.map((p) => p.price_gross));
    const plan = plans.find((p) => p.price_gross === lowest);
    if (plan)
      parts.push({
        kind: 'protection' as const,
        code: plan.code,
        gross: plan.price_gross,
        net: netOf(plan.price_gross, plan.vat_rate),
        vat_rate: plan.vat_rate,
      });
  }
  let gross = 0;
  let net = 0;
  for (const p of parts) {
    gross += p.gross;
    net += p.net;
  }
  return { gross, net, currency: t.price.currency, parts };
}

const vat = fc.constantFrom(0, 5, 7.7, 8.1, 19, 23);
const price = fc.record({
  gross: fc.integer({ min: 0, max: 500_000 }),
  net: fc.constant(0),
  vat_rate: vat,
  currency: fc.constantFrom('PLN', 'EUR', 'CHF'),
  period: fc.constantFrom('P1M', 'P1W'),
});
const fee: fc.Arbitrary<PricedFee> = fc.record({
  code: fc.constantFrom('admin', 'lock', 'cleaning'),
  amount_gross: fc.integer({ min: 0, max: 20_000 }),
  vat_rate: vat,
  when: fc.constantFrom('move_in', 'move_out' as const),
});
const plan: fc.Arbitrary<PricedPlan> = fc.record({
  code: fc.constantFrom('basic', 'plus', 'max'),
  price_gross: fc.integer({ min: 0, max: 5_000 }),
  vat_rate: vat,
  period: fc.constantFrom('P1M', 'P1W'),
});
const terms: fc.Arbitrary<MoveInTerms> = fc
  .record({
    price,
    first: fc.option(fc.record({ gross: fc.integer({ min: 0, max: 500_000 }), code: fc.constantFrom('A', 'B') })),
    deposit: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 500_000 })),
    fees: fc.array(fee, { maxLength: 4 }),
    protection: fc.option(fc.record({ required: fc.boolean(), plans: fc.array(plan, { maxLength: 4 }) }), {
      nil: null,
    }),
  })
  .map(({ first, ...t }) => ({
    ...t,
    schedule: [
      ...(first ? [{ from_period: 1, to_period: 1, gross: first.gross, net: 0, promotion: first.code }] : []),
      { from_period: first ? 2 : 1, to_period: null, gross: t.price.gross, net: 0, promotion: null },
    ],
  }));

describe('moveInOf, against the reference', () => {
  it('gives the reference parts and sums', () => {
    fc.assert(
      fc.property(terms, (t) => {
        expect(moveInOf(t)).toEqual(referenceMoveIn(t));
      }),
      { numRuns: 500 },
    );
  });

  it('sums its parts, each net at its own rate, the deposit without VAT', () => {
    fc.assert(
      fc.property(terms, (t) => {
        const m = moveInOf(t);
        expect(m.gross).toBe(m.parts.reduce((s, p) => s + p.gross, 0));
        expect(m.net).toBe(m.parts.reduce((s, p) => s + p.net, 0));
        for (const p of m.parts) expect(p.net).toBe(netOf(p.gross, p.vat_rate));
        for (const p of m.parts.filter((p) => p.kind === 'deposit'))
          expect(p).toMatchObject({ net: p.gross, vat_rate: 0 });
      }),
    );
  });
});

describe('cheapestPlan', () => {
  const plans = [
    { code: 'weekly', price_gross: 500, vat_rate: 23, period: 'P1W' },
    { code: 'basic', price_gross: 1500, vat_rate: 23, period: 'P1M' },
    { code: 'same', price_gross: 1500, vat_rate: 23, period: 'P1M' },
    { code: 'plus', price_gross: 2500, vat_rate: 23, period: 'P1M' },
  ];
  it("is the lowest price among plans billed per the listing's period, ties to the first listed", () => {
    expect(cheapestPlan(plans, 'P1M')?.code).toBe('basic');
    expect(cheapestPlan(plans, 'P1W')?.code).toBe('weekly');
    expect(cheapestPlan(plans, 'P1D')).toBeUndefined();
  });
});

describe('rentalTermsOf', () => {
  const facility = {
    currency: 'PLN',
    pricing_rules: [{ min_occupancy: 0.8, adjust_pct: 10 }],
    fees: [
      { code: 'admin', amount_gross: 4900, vat_rate: 23, when: 'move_in' as const },
      { code: 'cleaning', amount_gross: 9900, vat_rate: 23, when: 'move_out' as const },
    ],
    protection: {
      required: true,
      plans: [
        { code: 'plus', price_gross: 2500, vat_rate: 8, period: 'P1M' },
        { code: 'basic', price_gross: 1500, vat_rate: 8, period: 'P1M' },
      ],
    },
  };
  const listing = {
    price_gross: 29900,
    price_period: 'P1M',
    vat_rate: 23,
    dynamic_pricing: true,
    total_units: 10,
    free_units: 1,
    deposit: 29900,
  };
  const now = Date.parse('2026-06-01T12:00:00Z');
  const promotions: (PricedPromotion & { title: string })[] = [
    {
      code: 'FIRST50',
      title: '50% off your first month',
      kind: 'percent',
      value: 50,
      from_period: 1,
      to_period: 1,
      starts_at: null,
      ends_at: '2026-12-31T23:00:00Z',
    },
    {
      code: 'LATER',
      title: 'Not yet',
      kind: 'fixed_price',
      value: 100,
      from_period: 1,
      to_period: 3,
      starts_at: '2026-07-01T00:00:00Z',
      ends_at: null,
    },
  ];

  it('prices the first period from the dynamic price, and adds deposit, move-in fees and the cheapest plan', () => {
    const price: Price = priceOf(listing, facility); // 29900 + 10 % = 32890
    const terms = rentalTermsOf({ ...facility, price, deposit: listing.deposit, promotions }, now);
    expect(terms.promotions).toEqual([
      { ...promotions[0], price: { gross: 16445, net: 13370, vat_rate: 23, currency: 'PLN', period: 'P1M' } },
    ]);
    expect(terms.schedule).toEqual(scheduleOf(price, promotions, now));
    expect(terms.schedule.map((r) => [r.from_period, r.to_period, r.gross, r.promotion])).toEqual([
      [1, 1, 16445, 'FIRST50'],
      [2, null, 32890, null],
    ]);
    expect(terms.move_in).toEqual({
      gross: 16445 + 29900 + 4900 + 1500,
      net: 13370 + 29900 + 3984 + 1389,
      currency: 'PLN',
      parts: [
        { kind: 'first_period', code: 'FIRST50', gross: 16445, net: 13370, vat_rate: 23 },
        { kind: 'deposit', code: null, gross: 29900, net: 29900, vat_rate: 0 },
        { kind: 'fee', code: 'admin', gross: 4900, net: 3984, vat_rate: 23 },
        { kind: 'protection', code: 'basic', gross: 1500, net: 1389, vat_rate: 8 },
      ],
    });
  });

  it('leaves protection out when it is not required, and the regular price in when no promotion is active', () => {
    const price = priceOf(listing, facility);
    const terms = rentalTermsOf(
      { ...facility, protection: { ...facility.protection, required: false }, price, deposit: 0, promotions: [] },
      now,
    );
    expect(terms.promotions).toEqual([]);
    expect(terms.move_in.parts.map((p) => [p.kind, p.gross])).toEqual([
      ['first_period', 32890],
      ['fee', 4900],
    ]);
  });
});
