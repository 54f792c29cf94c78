// Money and period formatting shared by the rental page and the CLI: minor units in, text out.

/** Decimal places of a currency's minor unit (PLN 2, JPY 0), from Intl. */
export function minorDigitsOf(currency: string): number {
  return new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
}

/** 32900 PLN -> "329.00": exact, no floats. */
export function majorUnits(amount: number, currency: string): string {
  const digits = minorDigitsOf(currency);
  if (digits === 0) return String(amount);
  const sign = amount < 0 ? '-' : '';
  const s = String(Math.abs(amount)).padStart(digits + 1, '0');
  return `${sign}${s.slice(0, -digits)}.${s.slice(-digits)}`;
}

export function formatMoney(amount: number, currency: string, locale = 'en'): string {
  return new Intl.NumberFormat(locale, { style: 'currency', currency }).format(Number(majorUnits(amount, currency)));
}

const UNITS: Record<string, [string, string]> = { Y: ['year', 'years'], M: ['month', 'months'], W: ['week', 'weeks'], D: ['day', 'days'] };

/** P1M -> "1 month", P1Y6M -> "1 year 6 months". */
export function durationInWords(iso: string): string {
  const parts = [...iso.slice(1).matchAll(/(\d+)([YMWD])/g)].map(([, n, u]) => {
    const [one, many] = UNITS[u!]!;
    return `${n} ${Number(n) === 1 ? one : many}`;
  });
  return parts.join(' ') || iso;
}

/** P1M -> "month" for "per month"; anything longer keeps its number ("per 3 months"). */
export function periodInWords(iso: string): string {
  const words = durationInWords(iso);
  return words.startsWith('1 ') && !words.includes(' 1 ') ? words.slice(2) : words;
}
