// ISO 8601 durations in the import file: one spelling per length, so that periods equal as strings are equal, as
// answers and move-in compare them (a plan of P1M is the listing's P1M, never its P01M).
import { IsoDuration } from '../../shared/listing.ts';

/** A number written with a leading zero: `P01M`, `P1Y06M`. */
const LEADING_ZERO = /[PYMW]0\d/;
/** A well-formed duration whose every number is 0. */
const ZERO_LENGTH = /^P(0+[YMWD])+$/;

/** Durations are echoed in every answer: `P1Y6M` needs 5 characters, so 32 leaves room without letting one grow. */
export const duration = () =>
  IsoDuration.max(32).refine(
    (d) => !LEADING_ZERO.test(d),
    'must write its numbers without leading zeros (P1M, not P01M)',
  );

/** What a price is for: a period of zero length would be a price per nothing. */
export const billingPeriod = () => duration().refine((d) => !ZERO_LENGTH.test(d), 'must be longer than zero');
