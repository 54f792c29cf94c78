// Money, ISO 8601 periods, areas and dimensions as text, built on Intl (no locale data shipped): one wording for the
// rental page, the demo and the widget, which imports this file (so nothing here may need Node).
import type { Dimensions } from './listing.ts';

const formatters = new Map<string, Intl.NumberFormat>();

/** One Intl.NumberFormat per locale and options: making one costs far more than using it (200 cards, 3 prices each). */
function numberFormat(locale: string, options: Intl.NumberFormatOptions): Intl.NumberFormat {
  const key = `${locale} ${JSON.stringify(options)}`;
  let format = formatters.get(key);
  if (!format) {
    format = new Intl.NumberFormat(locale, options);
    formatters.set(key, format);
  }
  return format;
}

/**
 * ISO 4217's minor-unit exponents other than 2. The contract's amounts are in these minor units; Intl's digits are how
 * a currency is usually written, and differ for some (HUF, IDR, COP, IQD are written without decimals).
 */
const ISO_EXPONENTS: Readonly<Record<string, number>> = {
  ...Object.fromEntries(
    'BIF CLP DJF GNF ISK JPY KMF KRW PYG RWF UGX UYI VND VUV XAF XOF XPF'.split(' ').map((c) => [c, 0]),
  ),
  ...Object.fromEntries('BHD IQD JOD KWD LYD OMR TND'.split(' ').map((c) => [c, 3])),
  CLF: 4,
  UYW: 4,
};

/** Decimal places of a currency's minor unit after ISO 4217 (PLN 2, JPY 0, BHD 3). */
export function minorDigitsOf(currency: string): number {
  return ISO_EXPONENTS[currency] ?? 2;
}

/** 32900 PLN -> "329.00": exact, no floats (for machine-readable prices such as JSON-LD). */
export function majorUnits(amount: number, currency: string): string {
  const digits = minorDigitsOf(currency);
  if (digits === 0) return String(amount);
  const sign = amount < 0 ? '-' : '';
  const s = String(Math.abs(amount)).padStart(digits + 1, '0');
  return `${sign}${s.slice(0, -digits)}.${s.slice(-digits)}`;
}

/**
 * An amount in minor units (cents, grosze) as the locale writes that currency: 32900 PLN -> "329,00 zł". A currency
 * the locale writes with fewer decimals than ISO 4217 gives it (HUF) shows them only when the amount has them, so no
 * amount is ever rounded: 1500000 HUF -> "HUF 15,000", 1500050 HUF -> "HUF 15,000.50".
 */
export function formatMoney(minor: number, currency: string, locale = 'en'): string {
  const digits = minorDigitsOf(currency);
  const divisor = 10 ** digits;
  try {
    const usual = numberFormat(locale, { style: 'currency', currency });
    const exact =
      minor % divisor === 0 || (usual.resolvedOptions().maximumFractionDigits ?? 2) >= digits
        ? usual
        : numberFormat(locale, {
            style: 'currency',
            currency,
            minimumFractionDigits: digits,
            maximumFractionDigits: digits,
          });
    return exact.format(minor / divisor);
  } catch {
    return `${majorUnits(minor, currency)} ${currency}`; // an unknown currency code: still readable, never an exception
  }
}

export function formatNumber(value: number, locale = 'en'): string {
  return numberFormat(locale, { maximumFractionDigits: 2 }).format(value);
}

/** A VAT rate given as a percentage number (23, 8.1) -> "23%" / "23 %". */
export function formatPercent(rate: number, locale = 'en'): string {
  return numberFormat(locale, { style: 'percent', maximumFractionDigits: 2 }).format(rate / 100);
}

export function formatArea(m2: number, locale = 'en'): string {
  return `${formatNumber(m2, locale)}\u00a0m²`;
}

/** Width × depth (× height) in metres. */
export function formatDimensions(d: Dimensions, locale = 'en'): string {
  const sides = [d.width_m, d.depth_m, d.height_m].filter((n): n is number => typeof n === 'number');
  return `${sides.map((n) => formatNumber(n, locale)).join(' × ')}\u00a0m`;
}

type DurationUnit = 'year' | 'month' | 'week' | 'day';
const UNITS: readonly DurationUnit[] = ['year', 'month', 'week', 'day'];

/** The parts of an ISO 8601 duration of whole years, months, weeks and days, or null when it is not one. */
export function parseDuration(iso: string): [DurationUnit, number][] | null {
  const match = /^P(?:(\d+)Y)?(?:(\d+)M)?(?:(\d+)W)?(?:(\d+)D)?$/.exec(iso);
  if (!match || iso === 'P') return null;
  return UNITS.flatMap((unit, i): [DurationUnit, number][] => (match[i + 1] ? [[unit, Number(match[i + 1])]] : []));
}

function unitText(unit: DurationUnit, n: number, locale: string): string {
  return numberFormat(locale, { style: 'unit', unit, unitDisplay: 'long' }).format(n);
}

/** A duration in words: P14D -> "14 days", P1Y2M -> "1 year, 2 months", "14 Tage", "14 dni". */
export function formatDuration(iso: string, locale = 'en'): string {
  const parts = parseDuration(iso);
  if (!parts) return iso;
  const words = parts.map(([unit, n]) => unitText(unit, n, locale));
  return new Intl.ListFormat(locale, { style: 'long', type: 'unit' }).format(words);
}

const periods = new Map<string, string>();

/** A billing period as it follows a price ("per month", "/ month"): P1M -> "month", P3M -> "3 months". */
export function formatPeriod(iso: string, locale = 'en'): string {
  const key = `${locale} ${iso}`;
  let text = periods.get(key);
  if (text === undefined) periods.set(key, (text = periodText(iso, locale)));
  return text;
}

function periodText(iso: string, locale: string): string {
  const parts = parseDuration(iso);
  if (parts?.length !== 1) return formatDuration(iso, locale);
  const [unit, n] = parts[0] as [DurationUnit, number];
  if (n !== 1) return unitText(unit, n, locale);
  return numberFormat(locale, { style: 'unit', unit, unitDisplay: 'long' })
    .formatToParts(1)
    .filter((part) => part.type === 'unit')
    .map((part) => part.value)
    .join('');
}
