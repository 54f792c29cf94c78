// What a comparison site ranks by: the cost of a unit's first three billing periods for a new tenant, move-in included,
// so that "first month 1 zł" ranks by what it saves, not by its monthly price alone. A browser module (the comparison
// page loads it as it is); first-months.d.ts types it for the TypeScript that imports it.

export const FIRST_PERIODS = 3;

/** The price of billing period `n` (from 1) in a schedule: the run that covers it. */
export function periodGross(schedule, n) {
  const run = schedule.find((r) => r.from_period <= n && (r.to_period === null || n <= r.to_period));
  if (!run) throw new RangeError(`no run of the schedule covers period ${n}`);
  return run.gross;
}

/**
 * Gross minor units a new tenant pays for the first three periods: everything due at move-in (the first period, the
 * deposit, move-in fees, required protection's first period), then periods 2 and 3 from the schedule, each with the
 * required protection again.
 */
export function firstPeriodsCost({ schedule, move_in }) {
  const protection = move_in.parts.find((p) => p.kind === 'protection')?.gross ?? 0;
  let total = move_in.gross;
  for (let n = 2; n <= FIRST_PERIODS; n++) total += periodGross(schedule, n) + protection;
  return total;
}
