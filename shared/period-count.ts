// How many of its one unit a billing period is, for words that agree with that count ("Pierwsze 3 miesiące") and for
// runs of periods said in that unit ("Months 1–6"). A file of its own: only the details dialog needs it, so the
// widget's bundle loads it with the dialog and not before.
import { parseDuration } from './format.ts';

/** P3M -> 3, P14D -> 14, P1M -> 1; a period of more than one unit (P1Y2M) -> 0, which every language calls "other". */
export function periodCount(iso: string): number {
  const parts = parseDuration(iso);
  return parts?.length === 1 ? parts[0]![1] : 0;
}

const ONE: Record<string, string> = { year: 'P1Y', month: 'P1M', week: 'P1W', day: 'P1D' };
const IN_MONTHS: Record<string, number> = { year: 12, month: 1 };
const IN_DAYS: Record<string, number> = { week: 7, day: 1 };

/**
 * A period as a count of one unit: P3M -> [P1M, 3], P1Y -> [P1Y, 1], P1Y6M -> [P1M, 18], P2W3D -> [P1D, 17]; null for a
 * period that mixes months with weeks or days (P1M2W), which no one unit counts.
 */
function inOneUnit(iso: string): [unit: string, count: number] | null {
  const parts = parseDuration(iso);
  if (!parts) return null;
  if (parts.length === 1) return [ONE[parts[0]![0]]!, parts[0]![1]];
  for (const [unit, sizes] of [
    ['P1M', IN_MONTHS],
    ['P1D', IN_DAYS],
  ] as const)
    if (parts.every(([u]) => u in sizes)) return [unit, parts.reduce((sum, [u, n]) => sum + n * sizes[u]!, 0)];
  return null;
}

/** A run of billing periods in the listing's period. */
export interface PeriodRun {
  /** A billing period of one unit (P1M), or the listing's own period when no one unit counts it. */
  period: string;
  from: number;
  /** null: and every period after. */
  to: number | null;
}

/**
 * A run of billing periods counted in the period's unit, as a renter counts them: periods 1–2 of P3M are months 1–6
 * and period 3 on is month 7 on ("3 months 1–2" reads as nothing); null when no one unit counts the period (P1M2W).
 */
export function runInUnits(period: string, from: number, to: number | null): PeriodRun | null {
  const one = inOneUnit(period);
  if (!one) return null;
  const [unit, n] = one;
  return { period: unit, from: (from - 1) * n + 1, to: to === null ? null : to * n };
}
