// Which coding an Accept-Encoding picks, and that remembering the last value (and the recent ones) never answers for another.
import { expect, it } from 'vitest';
import { codingFor } from './encoding.ts';

it('br over gzip at equal q; q=0 refuses; * stands for codings not named; identity when nothing is acceptable', () => {
  expect(codingFor(undefined)).toBeNull();
  expect(codingFor('')).toBeNull();
  expect(codingFor('br, gzip')).toBe('br');
  expect(codingFor('gzip, deflate')).toBe('gzip');
  expect(codingFor('gzip;q=1, br;q=0.5')).toBe('gzip');
  expect(codingFor('br;q=0, gzip;q=0')).toBeNull();
  expect(codingFor('*')).toBe('br');
  expect(codingFor('*;q=0, x-gzip')).toBe('gzip');
  expect(codingFor('identity')).toBeNull();
});

it('values that alternate, repeat or are new each get their own answer', () => {
  const values: [string, 'br' | 'gzip' | null][] = [
    ['br, gzip', 'br'],
    ['gzip', 'gzip'],
    ['identity', null],
    ['BR;Q=0, GZIP', 'gzip'],
  ];
  for (let round = 0; round < 3; round++)
    for (const [value, coding] of values) {
      expect(codingFor(value), value).toBe(coding);
      expect(codingFor(`${value}`), `${value} again`).toBe(coding);
    }
  // More distinct values than are remembered: each is still parsed right.
  for (let i = 0; i < 200; i++) {
    const [gzip, br] = [(i % 9) + 1, i % 10];
    expect(codingFor(`gzip;q=0.${gzip}, br;q=0.${br}`)).toBe(br >= gzip ? 'br' : 'gzip');
  }
});
