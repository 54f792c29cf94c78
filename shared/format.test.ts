// The one wording of money, periods and sizes, as the rental page gets it in Node (the widget's tests check the browser).
import { describe, expect, it } from 'vitest';
import {
  formatArea,
  formatDimensions,
  formatDuration,
  formatMoney,
  formatPeriod,
  majorUnits,
  minorDigitsOf,
} from './format.ts';

describe('money', () => {
  it('writes minor units exactly for machines, by the currency exponent', () => {
    expect(majorUnits(32900, 'PLN')).toBe('329.00');
    expect(majorUnits(5, 'EUR')).toBe('0.05');
    expect(majorUnits(-5, 'EUR')).toBe('-0.05');
    expect(majorUnits(1200, 'JPY')).toBe('1200');
    expect(majorUnits(123456789012, 'EUR')).toBe('1234567890.12');
    expect([minorDigitsOf('PLN'), minorDigitsOf('JPY'), minorDigitsOf('BHD')]).toEqual([2, 0, 3]);
  });

  it('writes amounts as the locale does, English by default, and never throws', () => {
    expect(formatMoney(32900, 'PLN', 'pl-PL')).toBe(
      new Intl.NumberFormat('pl-PL', { style: 'currency', currency: 'PLN' }).format(329),
    );
    expect(formatMoney(26748, 'PLN')).toBe(
      new Intl.NumberFormat('en', { style: 'currency', currency: 'PLN' }).format(267.48),
    );
    expect(formatMoney(1200, 'JPY')).toBe('¥1,200');
    expect(formatMoney(500, 'nope')).toBe('5.00 nope');
  });

  it('reads minor units by ISO 4217, even where the locale writes the currency without decimals', () => {
    expect([minorDigitsOf('HUF'), minorDigitsOf('IDR'), minorDigitsOf('IQD'), minorDigitsOf('KWD')]).toEqual([
      2, 2, 3, 3,
    ]);
    expect(formatMoney(1500000, 'HUF')).toBe('HUF\u00a015,000');
    expect(formatMoney(1500050, 'HUF')).toBe('HUF\u00a015,000.50');
    expect(formatMoney(1500000, 'IQD')).toBe('IQD\u00a01,500');
    expect(formatMoney(1500250, 'IQD')).toBe('IQD\u00a01,500.250');
    expect(formatMoney(1234, 'KWD')).toBe('KWD\u00a01.234');
    expect(majorUnits(1500050, 'HUF')).toBe('15000.50');
  });
});

describe('periods', () => {
  it('writes a billing period as it follows "per" or "/"', () => {
    expect(['P1M', 'P1W', 'P3M', 'P1Y'].map((p) => formatPeriod(p))).toEqual(['month', 'week', '3 months', 'year']);
    expect(formatPeriod('P1M', 'de-DE')).toBe('Monat');
  });

  it('writes durations in words, and leaves what it cannot read as written', () => {
    expect(['P14D', 'P1M', 'P1Y6M'].map((p) => formatDuration(p))).toEqual(['14 days', '1 month', '1 year, 6 months']);
    expect(formatDuration('PT1H')).toBe('PT1H');
  });
});

describe('sizes', () => {
  it('writes areas and dimensions in metres', () => {
    expect(formatArea(7.5)).toBe('7.5\u00a0m²');
    expect(formatArea(1500)).toBe('1,500\u00a0m²');
    expect(formatDimensions({ width_m: 2.5, depth_m: 3, height_m: 2.4 })).toBe('2.5 × 3 × 2.4\u00a0m');
    expect(formatDimensions({ width_m: 1, depth_m: 2, height_m: null })).toBe('1 × 2\u00a0m');
  });
});
