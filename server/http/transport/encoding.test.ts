// Which coding an Accept-Encoding picks, and that remembering the recent values never answers for another.
import { expect, it } from 'vitest';
import { codingOf, Codings } from './encoding.ts';

it('br over gzip at equal q; q=0 refuses; * stands for codings not named; identity when nothing is acceptable', () => {
  const codings = new Codings();
  for (const coding of [codingOf, (v: string | undefined) => codings.of(v)]) {
    expect(coding(undefined)).toBeNull();
    expect(coding('')).toBeNull();
    expect(coding('br, gzip')).toBe('br');
    expect(coding('gzip, deflate')).toBe('gzip');
    expect(coding('gzip;q=1, br;q=0.5')).toBe('gzip');
    expect(coding('br;q=0, gzip;q=0')).toBeNull();
    expect(coding('*')).toBe('br');
    expect(coding('*;q=0, x-gzip')).toBe('gzip');
    expect(coding('identity')).toBeNull();
  }
});

it('values that alternate, repeat or are new each get their own answer', () => {
  const codings = new Codings();
  const values: [string, 'br' | 'gzip' | null][] = [
    ['br, gzip', 'br'],
    ['gzip', 'gzip'],
    ['identity', null],
    ['BR;Q=0, GZIP', 'gzip'],
  ];
  for (let round = 0; round < 3; round++)
    for (const [value, coding] of values) {
      expect(codings.of(value), value).toBe(coding);
      expect(codings.of(`${value}`), `${value} again`).toBe(coding);
    }
  // More distinct values than are remembered: each is still parsed right.
  for (let i = 0; i < 200; i++) {
    const [gzip, br] = [(i % 9) + 1, i % 10];
    expect(codings.of(`gzip;q=0.${gzip}, br;q=0.${br}`)).toBe(br >= gzip ? 'br' : 'gzip');
  }
});

it('a flood of distinct values keeps 64 and the value in use', () => {
  const codings = new Codings();
  codings.of('br, gzip');
  for (let i = 0; i < 1000; i++) {
    codings.of(`gzip;q=0.${i}`);
    if (i % 32 === 0) codings.of('br, gzip');
  }
  expect(codings.chosen.size).toBe(64);
  expect(codings.chosen.get('br, gzip')).toBe('br');
  expect(codings.chosen.get('gzip;q=0.0')).toBeUndefined();
});
