// Filtered and sorted lists cut out of a facility's list body: one pass over its summaries, no serialising.
import { COMPARATORS, SORT_KEYS, type SortKey } from '../../../shared/sort.ts';
import type { FacilityViews } from './facility-views.ts';
import type { ListQuery } from './query.ts';

/** Every sort order of a facility at once: a large facility's, with its build, instead of in a later request's turn. */
export function sortAll(views: FacilityViews): void {
  for (const key of SORT_KEYS) orderOf(views, key);
}

/** The facility's listing indices in `key`'s order (ties keep the import order: the sort is stable). */
function orderOf(views: FacilityViews, key: SortKey): Uint32Array {
  let order = views.orders[key];
  if (!order) {
    const s = views.summaries;
    const compare = COMPARATORS[key];
    order = views.orders[key] = Uint32Array.from(Array.from(s.keys()).sort((a, b) => compare(s[a]!, s[b]!)));
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
  const sort = q.sort === undefined ? 0 : SORT_KEYS.indexOf(q.sort) + 1;
  // lo, hi < areas.length (at most the facility's listings): far below 2^53 however combined.
  return 1 + (((lo * areas.length + hi) * (SORT_KEYS.length + 1) + sort) * 2 + (q.available === 'true' ? 1 : 0));
}

/** The filtered list's bytes, sliced from the list body: O(listings), no serialising. */
export function filteredBytesOf(views: FacilityViews, q: ListQuery): Buffer {
  const { summaries, spans } = views;
  const whole = views.list.identity.bytes;
  const order = q.sort ? orderOf(views, q.sort) : undefined;
  const picked: number[] = [];
  let length = 0;
  for (let k = 0; k < summaries.length; k++) {
    const i = order ? order[k]! : k;
    const s = summaries[i]!;
    if (q.available === 'true' && s.free_units <= 0) continue;
    if (q.min_area !== undefined && s.area_m2 < q.min_area) continue;
    if (q.max_area !== undefined && s.area_m2 > q.max_area) continue;
    picked.push(i);
    length += spans[i * 2 + 1]! - spans[i * 2]! + 1;
  }
  const headEnd = spans.length > 0 ? spans[0]! : whole.length - 2;
  const out = Buffer.allocUnsafe(headEnd + Math.max(0, length - 1) + 2);
  let at = whole.copy(out, 0, 0, headEnd);
  picked.forEach((i, n) => {
    if (n > 0) out[at++] = 0x2c; // ','
    at += whole.copy(out, at, spans[i * 2]!, spans[i * 2 + 1]!);
  });
  out[at++] = 0x5d; // ']'
  out[at++] = 0x7d; // '}'
  return out;
}
