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
  /** Median over the runs of ours' requests / the ceiling's, each run an equal share of one stretch of time. */
  ratio_rps: number;
  ratio_rps_interval: [number, number];
  runs: { ours: number; ceiling: number }[];
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
    const turns = setInterval(() => {
      signal(sides[active]!, 'SIGSTOP');
      active = 1 - active;
      signal(sides[active]!, 'SIGCONT');
    }, SLICE_MS);
    try {
      const [a, b] = await Promise.all(sides.map((s) => run(s.url, requests, { ...load, start })));
      const [o, c] = i % 2 === 0 ? [a!, b!] : [b!, a!];
      out.push({ ours: o.requests, ceiling: c.requests });
    } finally {
      clearInterval(turns);
      for (const s of sides) signal(s, 'SIGCONT');
    }
  }
  const ratios = out.map((r) => r.ours / r.ceiling);
  const [lo, hi] = medianInterval(ratios);
  return { ratio_rps: ratio(median(ratios), 1), ratio_rps_interval: [ratio(lo, 1), ratio(hi, 1)], runs: out };
}

function signal(server: ServerProcess, sig: 'SIGSTOP' | 'SIGCONT') {
  try {
    process.kill(server.pid, sig);
  } catch {
    // Gone: the run reports it (its requests stop), and the bench's tracking says why.
  }
}
