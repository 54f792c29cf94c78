// What a filtered list must hold, by the contract's words: the reference the views' cut lists are checked against.
import { sortListings } from '../../shared/sort.ts';
import type { ListResponse } from '../../shared/listing.ts';
import type { ListQuery } from '../../server/http/views/query.ts';

/** The whole list's listings that pass the query's filters, in its sort's order (import order without one). */
export function expectedList(list: ListResponse, q: ListQuery): ListResponse {
  const kept = list.listings.filter(
    (l) =>
      (q.available !== 'true' || l.free_units > 0) &&
      (q.min_area === undefined || l.area_m2 >= q.min_area) &&
      (q.max_area === undefined || l.area_m2 <= q.max_area),
  );
  return { facility: list.facility, listings: q.sort ? sortListings(kept, q.sort) : kept };
}
