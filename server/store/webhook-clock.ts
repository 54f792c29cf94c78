// The promotion clock: queues the listing.updated events of every promotion that started or ended since it last ran,
// on either database.
import { boundariesOf, boundaryChangesOf } from '../domain/webhook-events.ts';
import { queueEventsSteps } from './webhook-outbox.ts';
import { facilityDataSteps, watchedPromotions } from './webhook-reads.ts';
import { SKIP_LOCKED, sql, type Steps } from './steps.ts';

type Times = { starts_at: string | null; ends_at: string | null }[];

/** Whether one of these promotions (as stored, JSON) starts or ends in (from, until]. */
function crossed(promotions: string, from: number, until: number): boolean {
  return (JSON.parse(promotions) as Times).some((p) =>
    [p.starts_at, p.ends_at].some((t) => t !== null && Date.parse(t) > from && Date.parse(t) <= until),
  );
}

/** The next promotion boundary after `from` among listings an endpoint listens to; undefined when none is ahead. */
export function* nextBoundarySteps(from: number): Steps<number | undefined> {
  let next: number | undefined;
  for (const { promotions } of yield* watchedPromotions()) {
    for (const p of JSON.parse(promotions) as Times)
      for (const t of [p.starts_at, p.ends_at]) {
        const ms = t === null ? NaN : Date.parse(t);
        if (ms > from && (next === undefined || ms < next)) next = ms;
      }
  }
  return next;
}

/** The instant up to which promotion boundaries were queued; undefined before the clock's first run. */
export function* toldUntilSteps(): Steps<number | undefined> {
  const [clock] = yield sql('SELECT checked_until FROM webhook_clock WHERE id = 1');
  return clock ? Number(clock.checked_until) : undefined;
}

/**
 * Queues the events of each boundary in (the clock, now], at the boundary's instant, to the endpoints there were then,
 * and moves the clock to `now`. A boundary passed while no server ran is sent when one starts; one an import already
 * told (it came after the boundary, as when it adds a promotion that started in the past) is not sent again. One node
 * does it at a time (the clock's row lock); on the first run the clock starts at `now`.
 */
export function* promotionTickSteps(now: number): Steps<number> {
  const [clock] = yield sql(`SELECT checked_until FROM webhook_clock WHERE id = 1 ${SKIP_LOCKED}`);
  if (!clock) {
    yield sql('INSERT INTO webhook_clock (id, checked_until) VALUES (1, $1) ON CONFLICT (id) DO NOTHING', now);
    return 0;
  }
  const from = Number(clock.checked_until);
  const facilities = new Set<string>();
  for (const { facility_id, promotions } of yield* watchedPromotions())
    if (crossed(promotions, from, now)) facilities.add(facility_id);
  // Nothing crossed: the clock stays where it is (a later look covers the longer span), and nothing is written.
  if (facilities.size === 0) return 0;
  let queued = 0;
  for (const id of facilities) {
    const data = yield* facilityDataSteps(id);
    if (!data) continue;
    for (const at of boundariesOf(data, from, now))
      queued += yield* queueEventsSteps(id, boundaryChangesOf(data, at), at, { unlessTold: true });
  }
  yield sql('UPDATE webhook_clock SET checked_until = $1 WHERE id = 1', now);
  return queued;
}
