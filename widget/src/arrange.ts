// Client-side filter, order and limit: the snapshot has no query parameters, and `limit` is never sent to the API.
import type { Summary } from '../../server/schemas/listing.ts';

export type SortKey = 'price' | '-price' | 'area' | '-area' | 'code';
export const SORT_KEYS: readonly string[] = ['price', '-price', 'area', '-area', 'code'];

export interface Arrangement {
  availableOnly: boolean;
  sort: string | undefined;
  limit: number | undefined;
}

const byKey: Record<string, (a: Summary, b: Summary) => number> = {
  price: (a, b) => a.price.gross - b.price.gross,
  area: (a, b) => a.area_m2 - b.area_m2,
  code: (a, b) => a.code.localeCompare(b.code, 'en', { numeric: true }),
};

/** The listings to show, in order: stable sort, so ties keep the operator's order. */
export function arrange<T extends Summary>(listings: readonly T[], { availableOnly, sort, limit }: Arrangement): T[] {
  let out = availableOnly ? listings.filter((l) => l.free_units > 0) : [...listings];
  const compare = sort && SORT_KEYS.includes(sort) ? byKey[sort.replace('-', '')] : undefined;
  if (compare) {
    const sign = sort?.startsWith('-') ? -1 : 1;
    out.sort((a, b) => sign * compare(a, b));
  }
  if (limit !== undefined && Number.isInteger(limit) && limit > 0) out = out.slice(0, limit);
  return out;
}
