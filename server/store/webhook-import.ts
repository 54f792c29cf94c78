// An import's webhook events, queued in its own transaction on either database: the watched facilities read before
// it writes and after, their Details compared.
import { changesOf } from '../domain/webhook-events.ts';
import type { FacilityData } from '../domain/facility.ts';
import { toldUntilSteps } from './webhook-clock.ts';
import { queueEventsSteps } from './webhook-outbox.ts';
import { facilityDataSteps, watchedFacilities } from './webhook-reads.ts';
import type { Steps } from './steps.ts';

/** Reads the watched facilities of an import before it writes; `after` then queues what changed, in one transaction. */
export function* importEventsBefore(ids: readonly string[]): Steps<Map<string, FacilityData | undefined>> {
  const before = new Map<string, FacilityData | undefined>();
  for (const id of yield* watchedFacilities(ids)) before.set(id, yield* facilityDataSteps(id));
  return before;
}

/**
 * A boundary the clock has not reached yet (no server ran since, or its look is a second away) is told by the event of
 * an import that touches its listing: that event names what changed since the clock's last run.
 */
export function* importEventsAfter(before: Map<string, FacilityData | undefined>, now: number): Steps<number> {
  if (before.size === 0) return 0;
  const toldAt = Math.min(now, (yield* toldUntilSteps()) ?? now);
  let queued = 0;
  for (const [id, was] of before) {
    const data = yield* facilityDataSteps(id);
    if (data) queued += yield* queueEventsSteps(id, changesOf(was, data, now, toldAt), now);
  }
  return queued;
}
