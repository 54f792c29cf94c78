// The list orders of the contract's `sort` parameter: one comparator per key, used by the API and by the widget
// (which imports this file: pure functions over the public Summary shape, nothing that needs Node).
import type { Summary } from './listing.ts';

export const SORT_KEYS = ['price', '-price', 'area', '-area', 'code'] as const;
export type SortKey = (typeof SORT_KEYS)[number];

/** What the comparators read of a listing. */
export type Sortable = Pick<Summary, 'code' | 'area_m2'> & { price: Pick<Summary['price'], 'gross'> };

const isDigit = (code: number) => code >= 48 && code <= 57;
const digitsEnd = (text: string, from: number) => {
  let end = from;
  while (isDigit(text.charCodeAt(end))) end++;
  return end;
};
/** A character's place: its code, but "_" first, as in Unicode collation ("_" < "-" < "." < digits < letters). */
const rank = (code: number) => (code === 95 ? 0 : code);

/**
 * Natural order of unit codes: runs of digits compare as numbers (S-2 before S-10, S-02 the same as S-2), everything
 * else character by character, ignoring case. On the codes an import accepts this is the order of
 * `Intl.Collator('en', { numeric: true })`, except that codes differing only in case tie; spelled out, so that it is
 * the same in every runtime and locale. Codes that compare equal keep their import order (the sort is stable).
 */
export function compareCodes(a: string, b: string): number {
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  let i = 0;
  let j = 0;
  while (i < x.length && j < y.length) {
    if (isDigit(x.charCodeAt(i)) && isDigit(y.charCodeAt(j))) {
      while (x[i] === '0' && isDigit(x.charCodeAt(i + 1))) i++; // leading zeros do not count
      while (y[j] === '0' && isDigit(y.charCodeAt(j + 1))) j++;
      const p = x.slice(i, digitsEnd(x, i));
      const q = y.slice(j, digitsEnd(y, j));
      // More digits is a larger number; as many digits compare as text.
      const numeral = p.length - q.length || (p < q ? -1 : p > q ? 1 : 0);
      if (numeral) return numeral;
      i += p.length;
      j += q.length;
    } else {
      const difference = rank(x.charCodeAt(i)) - rank(y.charCodeAt(j));
      if (difference) return difference;
      i++;
      j++;
    }
  }
  return x.length - i - (y.length - j);
}

const byPrice = (a: Sortable, b: Sortable) => a.price.gross - b.price.gross;
const byArea = (a: Sortable, b: Sortable) => a.area_m2 - b.area_m2;

/** Each sort key's comparator: gross price or area (`-`: descending), or code in natural order. */
export const COMPARATORS: Readonly<Record<SortKey, (a: Sortable, b: Sortable) => number>> = {
  price: byPrice,
  '-price': (a, b) => byPrice(b, a),
  area: byArea,
  '-area': (a, b) => byArea(b, a),
  code: (a, b) => compareCodes(a.code, b.code),
};

export function isSortKey(value: unknown): value is SortKey {
  return (SORT_KEYS as readonly unknown[]).includes(value);
}

/** The listings in the order `key` names; ties keep the import order (Array.prototype.sort is stable). */
export function sortListings<T extends Sortable>(listings: readonly T[], key: SortKey): T[] {
  return [...listings].sort(COMPARATORS[key]);
}
