// Export progress: a bar redrawn in place on a terminal, plain lines elsewhere; and the snapshot option parsers.
import { InvalidArgumentError } from 'commander';
import { describe, expect, it } from 'vitest';
import type { ExportProgress } from '../../server/snapshots/publish/export.ts';
import type { Io } from '../io.ts';
import { progressReporter } from './snapshot-progress.ts';
import { formatDuration, parseTtl, parsePositiveInt } from './snapshot-args.ts';

function io() {
  const out: string[] = [];
  const err: string[] = [];
  const value: Io = {
    out: (t) => out.push(t),
    err: (t) => err.push(t),
    readStdin: async () => '',
    env: {},
    isTTY: true,
  };
  return { io: value, out, err };
}

const progress = (done: number, total: number): ExportProgress => ({
  facility: { id: `f-${done}`, version: 2, listings: 5, bytes: 100, changed: done % 2 === 0 },
  done,
  total,
  elapsedMs: done * 10,
});

describe('progressReporter', () => {
  it('draws one bar on a terminal and redraws it in place, always showing the last state', () => {
    const t = io();
    const report = progressReporter(t.io, { bar: true });
    for (let i = 1; i <= 1000; i++) report(progress(i, 1000));
    expect(t.out.length).toBeLessThan(20); // throttled
    expect(t.out[0]).not.toContain('\r');
    for (const line of t.out.slice(1)) expect(line.startsWith('\x1b[1A\r\x1b[2K')).toBe(true);
    expect(t.out.at(-1)).toMatch(/\[#{24}\] 1000\/1000 facilities {2}100\/s$/);
    expect(t.err).toEqual([]);
  });

  it('prints a line per facility for a few facilities, and every tenth for many, on stderr', () => {
    const few = io();
    const reportFew = progressReporter(few.io, { bar: false });
    for (let i = 1; i <= 3; i++) reportFew(progress(i, 3));
    expect(few.err).toEqual([
      'f-1: version 2, 5 listings, unchanged (1/3)',
      'f-2: version 2, 5 listings, changed (2/3)',
      'f-3: version 2, 5 listings, unchanged (3/3)',
    ]);
    const many = io();
    const reportMany = progressReporter(many.io, { bar: false });
    for (let i = 1; i <= 1000; i++) reportMany(progress(i, 1000));
    expect(many.err).toHaveLength(10);
    expect(many.err.at(-1)).toBe('exported 1000/1000 facilities (100/s)');
    expect(many.out).toEqual([]);
  });
});

describe('snapshot option parsers', () => {
  it('reads TTLs in s, m, h and d', () => {
    expect([parseTtl('90s'), parseTtl('30m'), parseTtl('12h'), parseTtl('7d')]).toEqual([90, 1800, 43_200, 604_800]);
    for (const bad of ['7', '7w', '-1d', '0s', '1.5h', '400d'])
      expect(() => parseTtl(bad), bad).toThrow(InvalidArgumentError);
  });

  it('reads --min-version as a whole number of 1 or more', () => {
    expect(parsePositiveInt('42')).toBe(42);
    for (const bad of ['0', '-3', '1.5', 'x', ''])
      expect(() => parsePositiveInt(bad), bad).toThrow(InvalidArgumentError);
  });

  it('formats time left', () => {
    expect([
      formatDuration(604_799),
      formatDuration(3 * 3600 + 720),
      formatDuration(75),
      formatDuration(42),
      formatDuration(-5),
    ]).toEqual(['6d 23h 59m', '3h 12m', '1m 15s', '42s', '0s']);
  });
});
