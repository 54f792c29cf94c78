// Filtered and sorted lists cut out of a facility's list body: one pass over its listings, no serialising.
import { COMPARATORS, SORT_KEYS, type Sortable, type SortKey } from '../../../shared/sort.ts';
import type { FacilityViews } from './facility-views.ts';
import type { ListQuery } from './query.ts';
import { FEATURES, UNIT_TYPES } from '../../../shared/listing.ts';

/** Every sort order of a facility at once: a large facility's, with its build, instead of in a later request's turn. */
export function sortAll(views: FacilityViews): void {
  const s = sortablesOf(views);
  for (const key of SORT_KEYS) orderOf(views, key, s);
}

/** As sortAll, one order per turn of the event loop: a large facility's sort takes milliseconds each. */
export async function sortAllInSteps(views: FacilityViews, turn: () => Promise<void>): Promise<void> {
  const s = sortablesOf(views);
  for (const key of SORT_KEYS) {
    await turn();
    orderOf(views, key, s);
  }
}

/** What the comparators read of each listing: made for a sort (or all five) and dropped after it. */
function sortablesOf(views: FacilityViews): Sortable[] {
  return views.data.listings.map((l, i) => ({
    code: l.code,
    area_m2: views.area[i]!,
    price: { gross: views.gross[i]! },
  }));
}

/** The facility's listing indices in `key`'s order (ties keep the import order: the sort is stable). */
function orderOf(views: FacilityViews, key: SortKey, s?: Sortable[]): Uint32Array {
  let order = views.orders[key];
  if (!order) {
    const of = s ?? sortablesOf(views);
    const compare = COMPARATORS[key];
    order = views.orders[key] = Uint32Array.from(Array.from(of.keys()).sort((a, b) => compare(of[a]!, of[b]!)));
  }
  return order;
}

/** How many values of a sorted array are below x (`orEqual`: at or below x). */
function countBelow(values: Float64Array, x: number, orEqual: boolean): number {
  let lo = 0;
  let hi = values.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (values[mid]! < x || (orEqual && values[mid] === x)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * A query's result, numbered: area bounds snap to the listings' own areas, so the endless distinct values a client can
 * send name few results (at most areas² x sorts x 2), and every empty result is 0. A number, not a string: no text is
 * built and hashed per request.
 */
export function resultKey(views: FacilityViews, q: ListQuery): number {
  const { areas } = views;
  const lo = q.min_area === undefined ? 0 : countBelow(areas, q.min_area, false);
  const hi = (q.max_area === undefined ? areas.length : countBelow(areas, q.max_area, true)) - 1;
  if (lo > hi) return 0;
  // A feature no listing has, or only unit types none has, match nothing.
  const features = q.features ?? 0;
  if ((features & views.featuresPresent) !== features) return 0;
  const types = q.unit_type === undefined ? 0 : q.unit_type & views.unitTypesPresent;
  if (q.unit_type !== undefined && types === 0) return 0;
  const sort = q.sort === undefined ? 0 : SORT_KEYS.indexOf(q.sort) + 1;
  // lo, hi < areas.length (at most 10,000 listings): below 2^31 before the 12 feature and 9 unit type bits, so below 2^53.
  const areasAndSort =
    ((lo * areas.length + hi) * (SORT_KEYS.length + 1) + sort) * 2 + (q.available === 'true' ? 1 : 0);
  return 1 + (areasAndSort * 2 ** FEATURES.length + features) * 2 ** UNIT_TYPES.length + types;
}

/** Listings a cut passes over between two pauses when made in steps (a fraction of a millisecond of work). */
export const CUT_STEP = 1000;

/**
 * The filtered list's bytes, sliced from the list body: O(listings), no serialising. A generator that pauses (yields)
 * after every CUT_STEP listings it passes over or copies: a large facility's cut is made over several event-loop turns,
 * so no other client's answer waits for a whole cut.
 */
export function* cutInSteps(
  views: FacilityViews,
  q: ListQuery,
  allocate: (size: number) => Buffer = Buffer.allocUnsafe,
): Generator<void, Buffer, void> {
  const { area, free, spans, features, unitType } = views;
  const whole = views.list.identity.bytes;
  const order = q.sort ? orderOf(views, q.sort) : undefined;
  const onlyFree = q.available === 'true';
  const min = q.min_area ?? -Infinity;
  const max = q.max_area ?? Infinity;
  const wanted = q.features ?? 0;
  // Unit type bits shifted by one: bit 0 stands for "no unit type", which no filter names.
  const types = q.unit_type === undefined ? -1 : q.unit_type << 1;
  const picked: number[] = [];
  let length = 0;
  for (let k = 0; k < area.length; k++) {
    if (k % CUT_STEP === CUT_STEP - 1) yield;
    const i = order ? order[k]! : k;
    if ((onlyFree && free[i] === 0) || area[i]! < min || area[i]! > max) continue;
    if ((features[i]! & wanted) !== wanted || ((1 << unitType[i]!) & types) === 0) continue;
    picked.push(i);
    length += spans[i * 2 + 1]! - spans[i * 2]! + 1;
  }
  const headEnd = spans.length > 0 ? spans[0]! : whole.length - 2;
  const out = allocate(headEnd + Math.max(0, length - 1) + 2);
  let at = whole.copy(out, 0, 0, headEnd);
  for (let n = 0; n < picked.length;) {
    const start = n;
    const first = picked[n]!;
    let last = first;
    // Listings next to each other in the list body go in one copy, with the commas between them (a cut without a sort).
    while (++n < picked.length && n % CUT_STEP !== 0 && picked[n] === last + 1) last++;
    if (start > 0) out[at++] = 0x2c; // ','
    at += whole.copy(out, at, spans[first * 2]!, spans[last * 2 + 1]!);
    if (n % CUT_STEP === 0 && n < picked.length) yield;
  }
  out[at++] = 0x5d; // ']'
  out[at] = 0x7d; // '}'
  return out;
}

/** The filtered list's bytes, cut at once. */
export function filteredBytesOf(views: FacilityViews, q: ListQuery): Buffer {
  const steps = cutInSteps(views, q);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/**
 * The filtered list's bytes, cut one step per event-loop turn (setImmediate: answers to other requests go between),
 * into `allocate(size)`'s buffer.
 */
export function filteredBytesLater(
  views: FacilityViews,
  q: ListQuery,
  allocate: (size: number) => Buffer = Buffer.allocUnsafe,
): Promise<Buffer> {
  const steps = cutInSteps(views, q, allocate);
  return new Promise((resolve, reject) => {
    const step = () => {
      try {
        const next = steps.next();
        if (next.done) resolve(next.value);
        else setImmediate(step);
      } catch (err) {
        reject(err as Error);
      }
    };
    setImmediate(step);
  });
}
