// A facility's hours of the day it is in its own time zone, whether it is open now, and when that next changes
// (Intl.DateTimeFormat with timeZone: the visitor's clock and zone do not matter).
import type { Day, Hours } from '../../shared/listing.ts';

/** The contract's days, Monday first (listing.ts holds them beside zod, which the bundle must not carry). */
const DAYS: readonly Day[] = ['mo', 'tu', 'we', 'th', 'fr', 'sa', 'su'];
const DAY_SECONDS = 24 * 3600;

/** The facility's day at `at`, its time as "HH:MM", and the seconds since its midnight. Throws for an unknown zone. */
function wallClock(timeZone: string, at: number): { day: Day; time: string; seconds: number } {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', {
      timeZone,
      weekday: 'short',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(at)
      .map((part) => [part.type, part.value]),
  );
  const [h, m, s] = [parts['hour'], parts['minute'], parts['second']].map(Number) as [number, number, number];
  const day = DAYS['MonTueWedThuFriSatSun'.indexOf(parts['weekday'] ?? '') / 3] ?? 'mo';
  return { day, time: `${parts['hour']}:${parts['minute']}`, seconds: h * 3600 + m * 60 + s };
}

/** "09:30" -> seconds since midnight ("24:00": the day's end). */
const secondsOf = (time: string) => Number(time.slice(0, 2)) * 3600 + Number(time.slice(3, 5)) * 60;

/**
 * The ranges of the facility's day at `now` ("09:00–18:00"), and whether one holds its time (start inclusive, end
 * exclusive). Times compare as text: both are zero-padded "HH:MM", and "24:00" ends a day after all its times. Throws
 * for a time zone this browser does not know.
 */
export function hoursAt(hours: Hours, timeZone: string, now: number): { open: boolean; ranges: string[] } {
  const { day, time } = wallClock(timeZone, now);
  const ranges = hours[day];
  return {
    open: ranges.some((range) => range.slice(0, 5) <= time && time < range.slice(6)),
    ranges: ranges.map((range) => range.replace('-', '–')),
  };
}

/**
 * The first instant after `now` at which any of `hours` opens or closes, or the facility's day ends (another day's
 * ranges show): when what hoursAt answers next changes. Throws for a time zone this browser does not know.
 */
export function nextHoursChange(hours: readonly Hours[], timeZone: string, now: number): number {
  const { day, seconds } = wallClock(timeZone, now);
  const bounds = hours.flatMap((h) => h[day].flatMap((range) => [range.slice(0, 5), range.slice(6)])).map(secondsOf);
  const target = Math.min(DAY_SECONDS, ...bounds.filter((b) => b > seconds));
  const at = now - (now % 1000) + (target - seconds) * 1000;
  // A clock change (summer time) between now and then moves the wall clock: one step lands on the boundary.
  const drift = (target % DAY_SECONDS) - wallClock(timeZone, at).seconds;
  return Math.abs(drift) <= 7200 ? at + drift * 1000 : at;
}
