// A facility's hours of the day it is in its own time zone, and whether it is open now (Intl.DateTimeFormat with
// timeZone: the visitor's clock and zone do not matter).
import type { Day, Hours } from '../../shared/listing.ts';

/** The contract's days, Monday first (listing.ts holds them beside zod, which the bundle must not carry). */
const DAYS: readonly Day[] = ['mo', 'tu', 'we', 'th', 'fr', 'sa', 'su'];

/**
 * The ranges of the facility's day at `now` ("09:00–18:00"), and whether one holds its time (start inclusive, end
 * exclusive). Times compare as text: both are zero-padded "HH:MM", and "24:00" ends a day after all its times. Throws
 * for a time zone this browser does not know.
 */
export function hoursAt(hours: Hours, timeZone: string, now: number): { open: boolean; ranges: string[] } {
  const at = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', {
      timeZone,
      weekday: 'short',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(now)
      .map((part) => [part.type, part.value]),
  );
  const time = `${at['hour']}:${at['minute']}`;
  const ranges = hours[DAYS['MonTueWedThuFriSatSun'.indexOf(at['weekday'] ?? '') / 3] ?? 'mo'];
  return {
    open: ranges.some((range) => range.slice(0, 5) <= time && time < range.slice(6)),
    ranges: ranges.map((range) => range.replace('-', '–')),
  };
}
