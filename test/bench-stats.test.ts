// The statistics the bench's verdicts rest on.
import { describe, expect, it } from 'vitest';
import { median, medianInterval } from '../bench/lib/report.ts';
import { turnTimes } from '../bench/lib/sliced.ts';
import { byWindow } from '../bench/lib/abuse-stats.ts';

describe('medianInterval', () => {
  it('spans the order statistics around the median that a 95 % interval needs', () => {
    // 12 values: k = floor((12 - 1.96 * sqrt(12)) / 2) = 2, so the 3rd smallest and the 3rd largest.
    const xs = [0.9, 0.7, 1.1, 0.8, 0.95, 0.85, 0.75, 1.0, 0.6, 0.88, 0.92, 1.2];
    expect(medianInterval(xs)).toEqual([0.75, 1.0]);
    const [lo, hi] = medianInterval(xs);
    expect(lo).toBeLessThanOrEqual(median(xs));
    expect(hi).toBeGreaterThanOrEqual(median(xs));
  });

  it('narrows as pairs are added, and ignores values that are not numbers', () => {
    const spread = (n: number) => Array.from({ length: n }, (_, i) => 0.7 + (0.3 * i) / (n - 1));
    const width = ([lo, hi]: [number, number]) => hi - lo;
    expect(width(medianInterval(spread(36)))).toBeLessThan(width(medianInterval(spread(12))));
    expect(medianInterval([NaN, 0.8, NaN])).toEqual([0.8, 0.8]);
    expect(medianInterval([])).toEqual([NaN, NaN]);
  });
});

describe('turnTimes', () => {
  it("gives each side the time of its turns within the generators' run, the first side first", () => {
    expect(turnTimes([100, 200, 300, 400], 450)).toEqual([250, 200]);
    // Turns that passed after the run ended count for nobody, so an uneven count of turns is no side's gain.
    expect(turnTimes([100, 200, 300, 400, 500, 600], 450)).toEqual([250, 200]);
    expect(turnTimes([], 2000)).toEqual([2000, 0]);
  });
});

describe('byWindow', () => {
  it("counts each answer for the window it was due in, leaving out each window's guard", () => {
    const switches = [
      { at: 1000, abuse: false },
      { at: 2000, abuse: true },
      { at: 3000, abuse: false },
    ];
    // Due before the first switch, in a guard, in an alone window, in the abuse window, in the last (alone) window.
    const result = { due: [900, 1100, 1500, 2100, 2500, 2999, 3300], latencies: [9, 1, 2, 3, 4, 5, 6] };
    expect(byWindow(result, switches, 200)).toEqual({ alone: [2, 6], abuse: [4, 5] });
    expect(byWindow(result, switches, 0)).toEqual({ alone: [1, 2, 6], abuse: [3, 4, 5] });
  });
});
