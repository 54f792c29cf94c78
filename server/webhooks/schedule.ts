// The Standard Webhooks retry schedule, and what one attempt's answer makes of a delivery.
import type { Attempt } from '../store/webhook-outbox.ts';
import type { SendResult } from './send.ts';

const S = 1000;
const H = 3_600_000;
/** The wait before each attempt: at once, then 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h and 24 h. */
export const RETRY_DELAYS_MS = [0, 5 * S, 5 * 60 * S, 30 * 60 * S, 2 * H, 5 * H, 10 * H, 14 * H, 20 * H, 24 * H];

/**
 * A 2xx delivers; anything else waits for the next try. 410, or a failure with no try left, disables the endpoint: the
 * event stays pending, first in its endpoint's line, and goes out after `webhooks enable` on a fresh schedule.
 */
export function outcomeOf(result: SendResult, attemptsBefore: number, at: number): Attempt {
  const base = { at, code: result.code, error: result.error };
  if (result.code !== null && result.code >= 200 && result.code < 300)
    return { ...base, status: 'delivered', nextAt: at, disable: null };
  if (result.code === 410) return { ...base, status: 'pending', nextAt: at, disable: 'gone' };
  const next = RETRY_DELAYS_MS[attemptsBefore + 1];
  if (next === undefined) return { ...base, status: 'pending', nextAt: at, disable: 'retries_exhausted' };
  return { ...base, status: 'pending', nextAt: at + next, disable: null };
}
