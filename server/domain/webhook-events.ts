// The events a change of a facility's data sends: each listing's Detail before and after, compared field by field.
import { ListingsError } from '../errors.ts';
import type { Detail, FacilityInfo } from '../../shared/listing.ts';
import type { FacilityData } from './facility.ts';
import { detailOf, facilityInfoOf } from './views.ts';

export const EVENT_TYPES = ['listing.updated', 'listing.added', 'listing.removed', 'facility.updated'] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** Event types as an operator names them (the CLI's --events, the panel's boxes), each known, or the unknown named. */
export function checkEventTypes(types: readonly string[]): EventType[] {
  const unknown = types.filter((t) => !(EVENT_TYPES as readonly string[]).includes(t));
  if (unknown.length > 0)
    throw new ListingsError('invalid_events', `${unknown.join(',')} is not one of ${EVENT_TYPES.join(', ')}`);
  return [...new Set(types as EventType[])];
}

/** An event before it is queued: `subject` is the listing's or the facility's id, one pending event per subject. */
export interface ChangeEvent {
  type: EventType;
  subject: string;
  changed: string[];
  data: { facility: FacilityInfo; listing?: Detail; changed: string[] };
}

/**
 * Details are made without the public URL (a served rent_url is then a path): the import does not know the address
 * partners reach, the sender does and completes it (`withPublicUrl`).
 */
const RELATIVE = '';

/** The names of the fields whose values differ, in the order of the newer object. */
function changedFields(before: object, after: object): string[] {
  const b = before as Record<string, unknown>;
  const a = after as Record<string, unknown>;
  const names = new Set([...Object.keys(a), ...Object.keys(b)]);
  return [...names].filter((k) => JSON.stringify(a[k]) !== JSON.stringify(b[k]));
}

function detailsAt(data: FacilityData | undefined, now: number): Map<string, Detail> {
  if (!data) return new Map();
  return new Map(data.listings.map((l) => [l.id, detailOf(l, data, RELATIVE, now)]));
}

/**
 * What changed between two reads of a facility (undefined before: it is new), as its Details answer at `now`. A listing
 * the change touches names what differs from the Detail partners were last told: its `before` at `toldAt`, the instant
 * up to which promotion boundaries were sent. A boundary passed since is not sent on its own once this event exists.
 */
export function changesOf(
  before: FacilityData | undefined,
  after: FacilityData,
  now: number,
  toldAt = now,
): ChangeEvent[] {
  const facility = facilityInfoOf(after.facility);
  const events: ChangeEvent[] = [];
  if (before) {
    const changed = changedFields(facilityInfoOf(before.facility), facility);
    if (changed.length > 0)
      events.push({ type: 'facility.updated', subject: facility.id, changed, data: { facility, changed } });
  }
  const old = detailsAt(before, now);
  const told = toldAt < now ? detailsAt(before, toldAt) : old;
  for (const [id, listing] of detailsAt(after, now)) {
    const was = old.get(id);
    const wasTold = told.get(id);
    old.delete(id);
    // Untouched by the change: a boundary the clock has not reached is sent at its own instant.
    if (was && changedFields(was, listing).length === 0) continue;
    const changed = wasTold ? changedFields(wasTold, listing) : Object.keys(listing);
    if (changed.length === 0) continue;
    const type = was ? 'listing.updated' : 'listing.added';
    events.push({ type, subject: id, changed, data: { facility, listing, changed } });
  }
  for (const [id, listing] of old) {
    events.push({ type: 'listing.removed', subject: id, changed: [], data: { facility, listing, changed: [] } });
  }
  return events;
}

/** The instants after `from`, up to and including `until`, at which one of the facility's promotions starts or ends. */
export function boundariesOf(data: FacilityData, from: number, until: number): number[] {
  const at = new Set<number>();
  for (const l of data.listings)
    for (const p of l.promotions)
      for (const t of [p.starts_at, p.ends_at]) {
        const ms = t === null ? NaN : Date.parse(t);
        if (ms > from && ms <= until) at.add(ms);
      }
  return [...at].sort((a, b) => a - b);
}

/** The listing.updated events a promotion boundary at `at` causes: each listing whose Detail differs just before it. */
export function boundaryChangesOf(data: FacilityData, at: number): ChangeEvent[] {
  const facility = facilityInfoOf(data.facility);
  const before = detailsAt(data, at - 1);
  const events: ChangeEvent[] = [];
  for (const [id, listing] of detailsAt(data, at)) {
    const changed = changedFields(before.get(id)!, listing);
    if (changed.length > 0)
      events.push({ type: 'listing.updated', subject: id, changed, data: { facility, listing, changed } });
  }
  return events;
}
