// The statement partners and operators settle on: clicks and unique visitors per facility, ref, listing and day.
import { ListingsError } from '../errors.ts';
import type { ReferralGroup, ReferralQuery, ReferralRow } from '../store/referrals.ts';

export const REFERRAL_GROUPS: readonly ReferralGroup[] = ['day', 'ref', 'listing'];
export const REFERRAL_COLUMNS = ['facility', 'ref', 'listing', 'day', 'clicks', 'unique_visitors'] as const;
/** The days a report covers when none are given: the last 30, today included. */
export const DEFAULT_DAYS = 30;

/** A UTC day as written (YYYY-MM-DD), checked to be a real one. */
export function parseDay(value: string): string {
  const ms = /^\d{4}-\d{2}-\d{2}$/.test(value) ? Date.parse(`${value}T00:00:00Z`) : NaN;
  if (Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 10) !== value)
    throw new ListingsError('invalid_day', `"${value}": expected a day such as 2026-03-01`);
  return value;
}

/** The query for these bounds; missing ones make the last DEFAULT_DAYS days up to `now`. */
export function referralQuery(
  opts: { facilityId?: string; ref?: string; from?: string; to?: string; by?: ReferralGroup },
  now = Date.now(),
): ReferralQuery {
  const to = opts.to ?? new Date(now).toISOString().slice(0, 10);
  const from =
    opts.from ?? new Date(Date.parse(`${to}T00:00:00Z`) - (DEFAULT_DAYS - 1) * 86_400_000).toISOString().slice(0, 10);
  if (from > to) throw new ListingsError('invalid_range', `--from ${from} is after --to ${to}`);
  return { facilityId: opts.facilityId, ref: opts.ref, from, to, by: opts.by };
}

/** RFC 4180: a header line, then a row per line, CRLF, fields quoted when they hold a comma, quote or line break. */
export function referralCsv(rows: readonly ReferralRow[]): string {
  const field = (v: string | number | null) => {
    const text = v === null ? '' : String(v);
    return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
  };
  const lines = [REFERRAL_COLUMNS.join(','), ...rows.map((r) => REFERRAL_COLUMNS.map((c) => field(r[c])).join(','))];
  return lines.map((l) => `${l}\r\n`).join('');
}

/** The first and last UTC day of a month written YYYY-MM. */
export function monthDays(month: string): { from: string; to: string } {
  if (!/^\d{4}-(0[1-9]|1[0-2])$/.test(month))
    throw new ListingsError('invalid_month', `"${month.slice(0, 20)}": expected a month such as 2026-11`);
  const [y, m] = month.split('-').map(Number) as [number, number];
  return { from: `${month}-01`, to: new Date(Date.UTC(y, m, 0)).toISOString().slice(0, 10) };
}

/** Every day from `from` to `to`, oldest first, none missing (a chart's x axis). */
export function daysOf(from: string, to: string): string[] {
  const days: string[] = [];
  for (let t = Date.parse(`${from}T00:00:00Z`); t <= Date.parse(`${to}T00:00:00Z`); t += 86_400_000)
    days.push(new Date(t).toISOString().slice(0, 10));
  return days;
}
