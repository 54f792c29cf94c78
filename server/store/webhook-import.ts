// An import's webhook events, queued in its own transaction on either database: the watched facilities read before
// it writes and after, their Details compared.
import { changesOf } from '../domain/webhook-events.ts';
import type { FacilityData } from '../domain/facility.ts';
import { queueEventsSteps } from './webhook-outbox.ts';
import { facilityDataSteps, watchedFacilities } from './webhook-reads.ts';
import type { Steps } from './steps.ts';

/** Reads the watched facilities of an import before it writes; `after` then queues what changed, in one transaction. */
export function* importEventsBefore(ids: readonly string[]): Steps<Map<string, FacilityData | undefined>> {
  const before = new Map<string, FacilityData | undefined>();
  for (const id of yield* watchedFacilities(ids)) before.set(id, yield* facilityDataSteps(id));
  return before;
}

export function* importEventsAfter(before: Map<string, FacilityData | undefined>, now: number): Steps<number> {
  let queued = 0;
  for (const [id, was] of before) {
    const data = yield* facilityDataSteps(id);
    if (data) queued += yield* queueEventsSteps(id, changesOf(was, data, now), now);
  }
  return queued;
}
