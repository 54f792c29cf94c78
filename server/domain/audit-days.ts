// The audit log's days, read alike by the panel's form and `listings audit`: a day is a UTC calendar day, and a filter
// that ends on a day includes all of it, as an operator means "until the 30th".
const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** A day as YYYY-MM-DD that names a day of the calendar (not 2026-02-30, which Date.parse would roll over). */
export function isDay(text: string): boolean {
  const at = Date.parse(text);
  return DAY.test(text) && !Number.isNaN(at) && new Date(at).toISOString().startsWith(text);
}

/** The day after `day` (YYYY-MM-DD), as the exclusive end of a filter that includes `day`. */
export const dayAfter = (day: string) => new Date(Date.parse(day) + 86_400_000).toISOString().slice(0, 10);
