// Client-side filter, order and limit: the snapshot has no query parameters, and `limit` is never sent to the API.
import { isSortKey, sortListings } from '../../shared/sort.ts';
import type { Summary } from '../../shared/listing.ts';

export interface Arrangement {
  availableOnly: boolean;
  sort?: string;
  /** A number, or the text of one as frameworks set it (`limit="2"`): read as the attribute reads it, by `Number`. */
  limit?: number | string;
}

/** The listings to show, in order: the API's own comparators (an unknown sort key keeps the operator's order). */
export function arrange<T extends Summary>(listings: readonly T[], { availableOnly, sort, limit }: Arrangement): T[] {
  let out = availableOnly ? listings.filter((l) => l.free_units > 0) : [...listings];
  if (isSortKey(sort)) out = sortListings(out, sort);
  const most = Number(limit); // NaN when unset: no limit
  if (Number.isInteger(most) && most > 0) out = out.slice(0, most);
  return out;
}
