// parseListQuery: the zod schema's rules, read once per distinct query string.
import { describe, expect, it, vi } from 'vitest';
import { FEATURES, UNIT_TYPES } from '../../../shared/listing.ts';
import { bitsOf, ListQueries, ListQuery, parseListQuery } from './query.ts';

describe('parseListQuery', () => {
  it('reads valid filters, refuses a repeated parameter, and ignores unknown ones', () => {
    expect(parseListQuery('?min_area=3.5&max_area=12&available=true&sort=-price')).toEqual({
      min_area: 3.5,
      max_area: 12,
      available: 'true',
      sort: '-price',
    });
    expect(parseListQuery('?sort=area&sort=code')).toBe('sort: must be given at most once');
    expect(parseListQuery('?limit=5&page=2')).toBeUndefined();
    expect(parseListQuery('')).toBeUndefined();
    expect(parseListQuery('?')).toBeUndefined();
    expect(parseListQuery('?min_area=9&max_area=3')).toBe('min_area: must not exceed max_area');
    expect(parseListQuery('?max_area=1e3')).toMatch(/^max_area: must be a number from 0 to 100000/);
    expect(parseListQuery('?available=TRUE')).toBe('available: must be true or false');
    expect(parseListQuery('?sort=%2Dprice')).toEqual({ sort: '-price' });
    expect(parseListQuery('?min_area=7+')).toMatch(/^min_area: /);
  });

  it('reads features and unit types as the bits of the words named', () => {
    expect(parseListQuery('?features=heated,drive_up&unit_type=small%2Cmedium')).toEqual({
      features: bitsOf(['heated', 'drive_up'], FEATURES),
      unit_type: bitsOf(['small', 'medium'], UNIT_TYPES),
    });
    expect(parseListQuery('?features=heated,')).toMatch(/^features: must be one or more of /);
  });

  it('parses a query string once, and answers a repeat of it from what it kept', () => {
    const queries = new ListQueries();
    const parse = vi.spyOn(ListQuery, 'safeParse');
    try {
      const search = `?min_area=${Math.random().toFixed(3)}&sort=code`;
      const first = queries.parse(search);
      expect(queries.parse(search)).toBe(first);
      expect(parse).toHaveBeenCalledTimes(1);
      // A kept query is shared by every request that sends its string: no one may change it.
      expect(Object.isFrozen(first)).toBe(true);
    } finally {
      parse.mockRestore();
    }
  });

  it('keeps 4,096 query strings, the ones in use: a client sending ever new ones cannot grow memory', () => {
    const queries = new ListQueries();
    const parse = vi.spyOn(ListQuery, 'safeParse');
    try {
      const [used, old] = ['?min_area=1.0001', '?min_area=2.0002'];
      queries.parse(used);
      queries.parse(old);
      for (let i = 0; i < 5000; i++) {
        queries.parse(`?max_area=${i}`);
        if (i % 1000 === 0) queries.parse(used);
      }
      expect(queries.parsed.size).toBe(4096);
      parse.mockClear();
      queries.parse(used);
      expect(parse).toHaveBeenCalledTimes(0);
      // The string asked for no more has been pushed out by the newer ones, so it is parsed again.
      queries.parse(old);
      expect(parse).toHaveBeenCalledTimes(1);
    } finally {
      parse.mockRestore();
    }
  });
});
