// The sort keys of the contract: natural code order (the same as a numeric Intl.Collator, in every runtime), stable ties.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compareCodes, isSortKey, sortListings, SORT_KEYS, type Sortable } from './sort.ts';

const sign = (n: number) => Math.sign(n) || 0;

describe('compareCodes', () => {
  it('orders digit runs as numbers', () => {
    expect(['S-10', 'S-2', 'S-1'].sort(compareCodes)).toEqual(['S-1', 'S-2', 'S-10']);
    expect(compareCodes('B9', 'b10')).toBeLessThan(0);
    expect(compareCodes('S-9', 'S-9a')).toBeLessThan(0);
    expect(compareCodes('M-07', 'M-7.5')).toBeLessThan(0);
    expect(compareCodes('S-100000000000000000001', 'S-100000000000000000002')).toBeLessThan(0); // beyond 2^53
  });

  it('ties numerically equal runs and codes that differ only in case', () => {
    expect(compareCodes('S-02', 'S-2')).toBe(0);
    expect(compareCodes('s-3', 'S-3')).toBe(0);
  });

  // The code alphabet of the import file, few characters, so that codes share prefixes and digit runs meet.
  const code = fc
    .string({ unit: fc.constantFrom(...'AaSsz0129-._'), minLength: 1, maxLength: 8 })
    .filter((s) => /^[A-Za-z0-9]/.test(s));

  it('is a consistent order: antisymmetric and transitive', () => {
    fc.assert(
      fc.property(code, code, code, (a, b, c) => {
        expect(sign(compareCodes(a, b)) + sign(compareCodes(b, a))).toBe(0);
        if (compareCodes(a, b) <= 0 && compareCodes(b, c) <= 0) expect(compareCodes(a, c)).toBeLessThanOrEqual(0);
      }),
      { numRuns: 2000 },
    );
  });

  it("agrees with Intl.Collator('en', { numeric: true }) on import codes, but for case and leading zeros (a tie)", () => {
    const collator = new Intl.Collator('en', { numeric: true });
    // What our order ties and the collator still tells apart (on its tertiary level): `a01` and `A1`.
    const tieKey = (s: string) => s.toLowerCase().replace(/\d+/g, (run) => run.replace(/^0+(?=\d)/, ''));
    fc.assert(
      fc.property(code, code, (a, b) => {
        const ours = sign(compareCodes(a, b));
        if (ours !== 0 || tieKey(a) !== tieKey(b)) expect(ours).toBe(sign(collator.compare(a, b)));
      }),
      { numRuns: 5000 },
    );
  });
});

describe('sortListings', () => {
  const listing = (code: string, gross: number, area_m2: number): Sortable => ({ code, area_m2, price: { gross } });
  const all = [listing('B-10', 300, 5), listing('B-2', 100, 9), listing('A-1', 300, 1), listing('b-02', 100, 9)];
  const codes = (list: Sortable[]) => list.map((l) => l.code);

  it('orders by each key, ties in the given order, without changing its input', () => {
    expect(codes(sortListings(all, 'code'))).toEqual(['A-1', 'B-2', 'b-02', 'B-10']);
    expect(codes(sortListings(all, 'price'))).toEqual(['B-2', 'b-02', 'B-10', 'A-1']);
    expect(codes(sortListings(all, '-price'))).toEqual(['B-10', 'A-1', 'B-2', 'b-02']);
    expect(codes(sortListings(all, 'area'))).toEqual(['A-1', 'B-10', 'B-2', 'b-02']);
    expect(codes(sortListings(all, '-area'))).toEqual(['B-2', 'b-02', 'B-10', 'A-1']);
    expect(codes(all)).toEqual(['B-10', 'B-2', 'A-1', 'b-02']);
  });

  it('knows exactly the contract keys', () => {
    expect(SORT_KEYS.every(isSortKey)).toBe(true);
    for (const other of ['', 'PRICE', '-code', 'name', undefined, null, 1]) expect(isSortKey(other)).toBe(false);
  });
});
