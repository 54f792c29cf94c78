// Opening hours in the import file: a week of HH:MM-HH:MM ranges per day, or "24/7"; answers always get the week.
import { z } from 'zod';
import { DAYS, type Hours } from '../../shared/listing.ts';

const RANGE = /^([01]\d|2[0-3]):([0-5]\d)-(([01]\d|2[0-3]):([0-5]\d)|24:00)$/;

/** Minutes since midnight of `HH:MM`. */
const minutesOf = (time: string): number => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));

/** The most ranges a day may hold: a week of answers stays small whatever the file holds. */
export const MAX_RANGES_A_DAY = 12;

/**
 * One day's ranges: at most MAX_RANGES_A_DAY, well-formed, each ending after it starts (never across midnight), none
 * overlapping another. The count is checked here rather than by `.max()`, whose refusal would leave the union in
 * `hours` with its generic message instead of this day's path.
 */
const dayRanges = z
  .array(
    z.string().regex(RANGE, 'must be a range HH:MM-HH:MM of a 24-hour clock, such as 09:00-18:00 (24:00 may end it)'),
  )
  .superRefine((ranges, ctx) => {
    if (ranges.length > MAX_RANGES_A_DAY) {
      ctx.addIssue({
        code: 'custom',
        message: `must hold at most ${MAX_RANGES_A_DAY} ranges a day (holds ${ranges.length})`,
      });
      return;
    }
    const spans = ranges
      .map((r, i) => ({ i, from: minutesOf(r.slice(0, 5)), to: minutesOf(r.slice(6)) }))
      .sort((a, b) => a.from - b.from);
    for (const s of spans)
      if (s.to <= s.from)
        ctx.addIssue({
          code: 'custom',
          path: [s.i],
          message:
            'must end after it starts and not cross midnight: split it into ...-24:00 and 00:00-... of the next day',
        });
    // Each range against the one of those starting before it that ends last: a long range may hold several.
    let latest: (typeof spans)[number] | undefined;
    for (const s of spans) {
      if (latest !== undefined && s.from < latest.to)
        ctx.addIssue({
          code: 'custom',
          path: [s.i],
          message: `must not overlap ${ranges[latest.i]} of the same day`,
        });
      if (s.to > s.from && (latest === undefined || s.to > latest.to)) latest = s;
    }
  })
  .transform((ranges) => [...ranges].sort());

const week = z.strictObject(
  Object.fromEntries(DAYS.map((d) => [d, dayRanges])) as Record<(typeof DAYS)[number], typeof dayRanges>,
);

/** The whole week, every day open all day: what "24/7" stands for in answers. */
export const ALWAYS_OPEN: Hours = Object.fromEntries(DAYS.map((d) => [d, ['00:00-24:00']])) as Hours;

/** `"24/7"` or a week with all seven days (`[]` = closed), as the week answers give. */
export const hours = () =>
  z.union([z.literal('24/7').transform((): Hours => ALWAYS_OPEN), week], {
    error: `must be "24/7" or an object of the days ${DAYS.join(', ')}, each a list of HH:MM-HH:MM ranges`,
  });
