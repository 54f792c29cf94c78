// Periods, instants and promotion prices the import refuses because answers would get them wrong: a billing period of
// zero length or written with leading zeros, required protection without a plan of a listing's billing period, an
// instant outside years 0001-9999 in UTC, a fixed_price promotion that saves nothing. Each named by its JSON path.
import { describe, expect, it } from 'vitest';
import { problemsOf, promotion, type Spoil } from './helpers/rental-info.ts';

const L0 = 'facilities[0].listings[0]';
const PROMO = `${L0}.promotions[0]`;
const setPromotion =
  (over: Record<string, unknown>): Spoil =>
  (f) =>
    (f.listings[0].promotions = [promotion(over)]);

const REFUSED: [string, Spoil, string, RegExp][] = [
  ['a zero price_period', (f) => (f.listings[0].price_period = 'P0D'), `${L0}.price_period`, /longer than zero/],
  [
    'a zero price_period of two parts',
    (f) => (f.listings[1].price_period = 'P0Y0M'),
    `facilities[0].listings[1].price_period`,
    /longer than zero/,
  ],
  [
    'a zero plan period',
    (f) => (f.protection.plans[1].period = 'P0M'),
    'facilities[0].protection.plans[1].period',
    /longer than zero/,
  ],
  [
    'a price_period with a leading zero',
    (f) => (f.listings[0].price_period = 'P01M'),
    `${L0}.price_period`,
    /leading zeros/,
  ],
  [
    'a plan period with a leading zero',
    (f) => (f.protection.plans[0].period = 'P01M'),
    'facilities[0].protection.plans[0].period',
    /leading zeros/,
  ],
  [
    'a notice period with a leading zero',
    (f) => (f.listings[0].notice_period = 'P014D'),
    `${L0}.notice_period`,
    /leading zeros/,
  ],
  [
    'required protection without a plan of an active listing’s period',
    (f) => (f.listings[2].price_period = 'P1W'),
    'facilities[0].listings[2].price_period',
    /protection is required: .*period P1M/,
  ],
  [
    'starts_at after year 9999 in UTC',
    setPromotion({ starts_at: '9999-12-31T23:30:00-01:00', ends_at: null }),
    `${PROMO}.starts_at`,
    /0001.*9999/,
  ],
  [
    'ends_at before year 0001 in UTC',
    setPromotion({ ends_at: '0001-01-01T00:30:00+01:00' }),
    `${PROMO}.ends_at`,
    /0001.*9999/,
  ],
  [
    'a fixed_price at the regular price',
    setPromotion({ kind: 'fixed_price', value: 9405 }),
    `${PROMO}.value`,
    /below the listing's regular price \(9405\)/,
  ],
  [
    'an amount_off of 0',
    setPromotion({ kind: 'amount_off', value: 0 }),
    `${PROMO}.value`,
    /more than 0 for kind amount_off/,
  ],
  [
    'a pricing rule out of range beside a fixed_price: the rule alone',
    (f) => {
      f.pricing_rules = [{ min_occupancy: 0, adjust_pct: -101 }];
      f.listings[0].promotions = [promotion({ kind: 'fixed_price', value: 100 })];
    },
    'facilities[0].pricing_rules[0].adjust_pct',
    /-100/,
  ],
  [
    'a duplicate pricing tier beside a fixed_price: the tier alone',
    (f) => {
      f.pricing_rules = [
        { min_occupancy: 0, adjust_pct: -99 },
        { min_occupancy: 0, adjust_pct: 0 },
      ];
      f.listings[0].promotions = [promotion({ kind: 'fixed_price', value: 9000 })];
    },
    'facilities[0].pricing_rules[1].min_occupancy',
    /duplicate tier/,
  ],
  [
    'a negative price beside a fixed_price: the price alone',
    (f) => {
      f.listings[0].price_gross = -500;
      f.listings[0].promotions = [promotion({ kind: 'fixed_price', value: 0 })];
    },
    `${L0}.price_gross`,
    /./,
  ],
  ['a percent of 0', setPromotion({ kind: 'percent', value: 0 }), `${PROMO}.value`, /from 1 to 100/],
  [
    'a fixed_price below the base price but above the dynamic price',
    setPromotion({ kind: 'fixed_price', value: 9500 }),
    `${PROMO}.value`,
    /below the listing's regular price \(9405\)/,
  ],
];

describe('periods, instants and promotion prices answers would get wrong', () => {
  it.each(REFUSED)('%s is refused, naming its path and the rule', (_, spoil, path, rule) => {
    const problems = problemsOf(spoil);
    expect(problems).toHaveLength(1);
    expect(problems[0]!.startsWith(`${path}: `)).toBe(true);
    expect(problems[0]).toMatch(rule);
  });

  const ACCEPTED: [string, Spoil][] = [
    ['no notice period (P0D)', (f) => (f.listings[0].notice_period = 'P0D')],
    ['a period of ten months', (f) => (f.listings[0].min_rental_period = 'P10M')],
    [
      'an inactive listing billed per week beside required protection',
      (f) => Object.assign(f.listings[2], { price_period: 'P1W', active: false }),
    ],
    [
      'optional protection without a plan of the period',
      (f) => {
        f.protection.required = false;
        f.listings[2].price_period = 'P1W';
      },
    ],
    [
      'a listing billed per week with a weekly plan',
      (f) => {
        f.listings[2].price_period = 'P1W';
        f.protection.plans.push({
          code: 'week',
          title: 'Weekly',
          cover: 1,
          price_gross: 400,
          vat_rate: 23,
          period: 'P1W',
        });
      },
    ],
    ['a fixed_price one below the regular price', setPromotion({ kind: 'fixed_price', value: 9404 })],
    [
      'instants at the edges of year 0001 and 9999',
      setPromotion({ starts_at: '0001-01-01T00:00:00Z', ends_at: '9999-12-31T23:59:59Z' }),
    ],
  ];
  it.each(ACCEPTED)('%s is accepted', (_, spoil) => expect(problemsOf(spoil)).toEqual([]));
});
