// Measured rounds (wrk's figures, the server's CPU time and peak RSS from /proc) and paired ratios of two servers.
import { readFileSync, writeFileSync } from 'node:fs';
import { runWrk, type BenchRequest, type Figures, type Load } from './load.ts';
import type { ServerProcess } from './servers.ts';

/** A file of /proc/PID, or '' once the process has gone. */
function proc(pid: number, file: string): string {
  try {
    return readFileSync(`/proc/${pid}/${file}`, 'utf8');
  } catch {
    return '';
  }
}

/** Resident set size in MB (VmHWM: the peak since start or resetPeakRss), NaN once the process has gone. */
export const rssMb = (pid: number, field: 'VmRSS' | 'VmHWM' = 'VmRSS') =>
  Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(proc(pid, 'status'))?.[1] ?? NaN) / 1024;

/** Sets VmHWM to the present RSS (clear_refs 5), so that it reads the peak from here on; false if refused. */
export function resetPeakRss(pid: number): boolean {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}

/** CPU time (user + system) so far in ms: utime and stime, the 12th and 13th fields after the name, in 1/100 s. */
function cpuMs(pid: number): number {
  const fields = proc(pid, 'stat').split(') ')[1]?.split(' ') ?? [];
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

export interface Round extends Figures {
  /** Server CPU per answered request in µs: steadier than req/s on a shared machine. */
  cpu_us_per_req: number;
  rss_mb: number;
}

export async function measure(server: ServerProcess, requests: BenchRequest[], load: Load): Promise<Round> {
  const rss: number[] = [];
  const sampler = setInterval(() => rss.push(rssMb(server.pid)), 250);
  const cpu = cpuMs(server.pid);
  const figures = await runWrk(server.url, requests, load).finally(() => clearInterval(sampler));
  const used = cpuMs(server.pid) - cpu;
  rss.push(rssMb(server.pid));
  return {
    ...figures,
    cpu_us_per_req: Math.round((used * 10_000) / figures.requests) / 10,
    rss_mb: Math.max(...rss.filter((x) => !Number.isNaN(x))),
  };
}

/**
 * Each server's warm-up, then rounds of each in turn, the order alternating (neither always runs on the machine the
 * other warmed), each round starting elsewhere in the requests (server i is asked `requests(i)`); each server's side,
 * and the first's ratios to the second.
 */
export async function compare(
  servers: ServerProcess[],
  requests: (i: number) => BenchRequest[],
  r: { warmUp: Load; load: Load; rounds: number },
) {
  for (const [i, server] of servers.entries()) await measure(server, requests(i), r.warmUp);
  const rounds: Round[][] = servers.map(() => []);
  for (let k = 0; k < r.rounds; k++) {
    const order = servers.map((_, i) => i);
    for (const i of k % 2 === 0 ? order : order.reverse()) {
      const start = Math.floor((k * requests(i).length) / r.rounds);
      rounds[i]!.push(await measure(servers[i]!, requests(i), { ...r.load, start }));
    }
  }
  return { sides: rounds.map(sideOf), ratios: ratiosOf(rounds[0]!, rounds[1]!), rounds };
}

export const median = (xs: number[]) => {
  const s = xs.filter((x) => !Number.isNaN(x)).sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length === 0 ? NaN : s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

/** A 95 % interval of the median from order statistics alone: [lowest, highest] below 6 values. */
export function medianInterval(xs: number[]): [number, number] {
  const s = xs.filter((x) => !Number.isNaN(x)).sort((a, b) => a - b);
  const k = Math.max(0, Math.floor((s.length - 1.96 * Math.sqrt(s.length)) / 2));
  return [s[k] ?? NaN, s[s.length - 1 - k] ?? NaN];
}

const round = (x: number, places: number) => Math.round(x * 10 ** places) / 10 ** places;
export const ratio = (a: number, b: number) => round(a / b, 2);

export interface Side {
  rps: number;
  p50_ms: number;
  p99_ms: number;
  cpu_us_per_req: number;
  /** Share of its pinned core the server used: well under 1, something else set the pace. */
  core_busy: number;
  rss_mb: number;
}

/** Medians over the rounds; RSS is the peak of all of them. */
export function sideOf(rounds: Round[]): Side {
  const rps = Math.round(median(rounds.map((r) => r.rps)));
  const cpu = median(rounds.map((r) => r.cpu_us_per_req));
  return {
    rps,
    p50_ms: round(median(rounds.map((r) => r.p50)), 3),
    p99_ms: round(median(rounds.map((r) => r.p99)), 3),
    cpu_us_per_req: round(cpu, 1),
    core_busy: round((rps * cpu) / 1e6, 2),
    rss_mb: round(Math.max(0, ...rounds.map((r) => r.rss_mb).filter((x) => !Number.isNaN(x))), 1),
  };
}

export interface Ratios {
  ratio_rps: number;
  /** The 95 % interval of ratio_rps. */
  ratio_rps_interval: [number, number];
  ratio_p99: number;
  ratio_cpu: number;
}

/** a over b: the median of per-round ratios (round i of each ran back to back, so a slow spell lands on both sides). */
export function ratiosOf(a: Round[], b: Round[]): Ratios {
  const per = (f: (r: Round) => number) => a.map((x, i) => f(x) / f(b[i]!));
  const [lo, hi] = medianInterval(per((x) => x.rps));
  return {
    ratio_rps: ratio(median(per((x) => x.rps)), 1),
    ratio_rps_interval: [ratio(lo, 1), ratio(hi, 1)],
    ratio_p99: ratio(median(per((x) => x.p99)), 1),
    ratio_cpu: ratio(median(per((x) => x.cpu_us_per_req)), 1),
  };
}
