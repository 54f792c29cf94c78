// Ours and the ceiling taking turns on the servers' core in slices of a tenth of a second instead of rounds of seconds:
// both are under load at once, and the one whose turn it is not is stopped (SIGSTOP), so they share every slow or fast
// spell of the machine alike. On this VM the machine's speed moves by tens of percent from one second to the next, which
// spreads the rounds' paired ratios from 0.6 to 1.2; the slices' ratios stay within a few percent of each other. Only
// req/s comes out of it: a stopped server's clients wait, so their latencies mean nothing.
import type { BenchRequest, Generator, Load } from './load.ts';
import { medianInterval, median, ratio } from './report.ts';
import type { ServerProcess } from './servers.ts';

/** How long each server runs before the other's turn. */
export const SLICE_MS = 100;

export interface SlicedFigures {
  /** Median over the runs of ours' requests per second of its turns over the ceiling's. */
  ratio_rps: number;
  ratio_rps_interval: [number, number];
  /** Requests each answered in a run, and how long its turns lasted within the run (ms). */
  runs: { ours: number; ceiling: number; ours_ms: number; ceiling_ms: number }[];
}

/** `runs` runs of `load.duration` seconds; the server that starts alternates, and each run starts elsewhere in the rotation. */
export async function measureSliced(
  run: Generator,
  ours: ServerProcess,
  ceiling: ServerProcess,
  requests: BenchRequest[],
  load: Load,
  runs: number,
): Promise<SlicedFigures> {
  const out: SlicedFigures['runs'] = [];
  for (let i = 0; i < runs; i++) {
    const start = Math.floor((i * requests.length) / runs);
    const sides = i % 2 === 0 ? [ours, ceiling] : [ceiling, ours];
    let active = 0;
    signal(sides[1]!, 'SIGSTOP');
    const began = performance.now();
    // When each turn ended: a run of 2 s holds 20 turns, and one more for either side would be 10 % of its figure.
    const switches: number[] = [];
    const turns = setInterval(() => {
      signal(sides[active]!, 'SIGSTOP');
      active = 1 - active;
      signal(sides[active]!, 'SIGCONT');
      switches.push(performance.now() - began);
    }, SLICE_MS);
    try {
      const [a, b] = await Promise.all(sides.map((s) => run(s.url, requests, { ...load, start })));
      const [first, second] = turnTimes(switches, load.duration * 1000);
      const [o, c] = i % 2 === 0 ? [a!, b!] : [b!, a!];
      const [oMs, cMs] = i % 2 === 0 ? [first, second] : [second, first];
      out.push({ ours: o.requests, ceiling: c.requests, ours_ms: Math.round(oMs), ceiling_ms: Math.round(cMs) });
    } finally {
      clearInterval(turns);
      for (const s of sides) signal(s, 'SIGCONT');
    }
  }
  return slicedFiguresOf(out);
}

/**
 * How long each side had its turns within the generators' `duration` ms, from the times the turn passed (the first
 * side's turn comes first).
 */
export function turnTimes(switches: readonly number[], duration: number): [number, number] {
  const times: [number, number] = [0, 0];
  let from = 0;
  let side = 0;
  for (const at of [...switches, Infinity]) {
    times[side as 0 | 1] += Math.max(0, Math.min(at, duration) - from);
    if (at >= duration) break;
    from = at;
    side = 1 - side;
  }
  return times;
}

/** The median ratio of runs, with its 95 % interval: of one measureSliced(), or of several pooled. */
export function slicedFiguresOf(runs: SlicedFigures['runs']): SlicedFigures {
  const ratios = runs.map((r) => r.ours / r.ours_ms / (r.ceiling / r.ceiling_ms));
  const [lo, hi] = medianInterval(ratios);
  return { ratio_rps: ratio(median(ratios), 1), ratio_rps_interval: [ratio(lo, 1), ratio(hi, 1)], runs };
}

function signal(server: ServerProcess, sig: 'SIGSTOP' | 'SIGCONT') {
  try {
    process.kill(server.pid, sig);
  } catch {
    // Gone: the run reports it (its requests stop), and the bench's tracking says why.
  }
}
