// What the bench prints and records: the machine, medians over rounds, ratios against the ceiling, text tables.
import { cpus, loadavg, totalmem } from 'node:os';
import type { Round } from './measure.ts';

export function machine() {
  return {
    cpu: cpus()[0]?.model ?? 'unknown',
    cores: cpus().length,
    memory_gb: Math.round(totalmem() / 2 ** 30),
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
    loadavg_at_start: loadavg().map((l) => Math.round(l * 100) / 100),
  };
}

export const median = (xs: number[]) => {
  const s = xs.filter((x) => !Number.isNaN(x)).sort((a, b) => a - b);
  if (s.length === 0) return NaN;
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

/**
 * A 95 % interval for the median of xs, from their order statistics alone (no assumption about their spread): the
 * k-th smallest and k-th largest, k from the normal approximation to the binomial. [lowest, highest] below 6 values.
 */
export function medianInterval(xs: number[]): [number, number] {
  const s = xs.filter((x) => !Number.isNaN(x)).sort((a, b) => a - b);
  if (s.length === 0) return [NaN, NaN];
  const k = Math.max(0, Math.floor((s.length - 1.96 * Math.sqrt(s.length)) / 2));
  return [s[k]!, s[s.length - 1 - k]!];
}

export interface Side {
  rps: number;
  p50_ms: number;
  p99_ms: number;
  cpu_us_per_req: number;
  /** Share of its pinned core the server used (req/s x CPU per answer): well under 1, it was not what limited req/s. */
  core_busy: number;
  rss_mb: number;
  /** The load generator's share of its core (median over rounds). */
  generator_busy: number;
  /** Share of the time the server waited for its core (median over rounds). */
  server_waited: number;
  rounds: Round[];
}

/** Medians over the rounds; RSS is the peak of all of them. */
export function sideOf(rounds: Round[]): Side {
  const rps = Math.round(median(rounds.map((r) => r.rps)));
  const cpu = median(rounds.map((r) => r.cpu_us_per_req));
  return {
    rps,
    p50_ms: round3(median(rounds.map((r) => r.p50))),
    p99_ms: round3(median(rounds.map((r) => r.p99))),
    cpu_us_per_req: Math.round(cpu * 10) / 10,
    core_busy: Math.round((rps * cpu) / 1e4) / 100,
    rss_mb: Math.round(Math.max(...rounds.map((r) => r.rss_mb).filter((x) => !Number.isNaN(x)), 0) * 10) / 10,
    generator_busy: median(rounds.map((r) => r.generator_busy)),
    server_waited: median(rounds.map((r) => r.server_waited)),
    rounds,
  };
}

const round3 = (x: number) => Math.round(x * 1000) / 1000;
export const ratio = (a: number, b: number) => Math.round((a / b) * 100) / 100;

/** Fixed-width text table; numbers right-aligned. */
export function table(head: string[], rows: (string | number)[][]): string {
  const cells = [head, ...rows.map((r) => r.map((c) => (typeof c === 'number' ? fmt(c) : c)))];
  const widths = head.map((_, i) => Math.max(...cells.map((r) => String(r[i] ?? '').length)));
  const line = (r: (string | number)[]) =>
    r.map((c, i) => (i === 0 ? String(c).padEnd(widths[i]!) : String(c).padStart(widths[i]!))).join('  ');
  return [line(cells[0]!), widths.map((w) => '-'.repeat(w)).join('  '), ...cells.slice(1).map(line)].join('\n') + '\n';
}

function fmt(n: number): string {
  if (Number.isNaN(n)) return '-';
  if (Number.isInteger(n) && Math.abs(n) >= 100) return n.toLocaleString('en-US');
  return String(n);
}

/** Fields of raw figures per round or run: printed during a run, left out of the results file. */
const RAW = new Set(['rounds', 'runs', 'error_answers', 'ratio_rps_per_process']);

/** A results file's text: the summary without raw rounds, an object or array of plain values on one line when short. */
export function resultsText(value: unknown, indent = ''): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  const entries = Array.isArray(value)
    ? value.map((v) => [undefined, v] as const)
    : Object.entries(value).filter(([k, v]) => v !== undefined && !(RAW.has(k) && Array.isArray(v)));
  const [open, close] = Array.isArray(value) ? ['[', ']'] : ['{', '}'];
  const item = ([k, v]: readonly [string | undefined, unknown], at: string) =>
    `${k === undefined ? '' : `${JSON.stringify(k)}: `}${resultsText(v, at)}`;
  const flat = `${open}${entries.map((e) => item(e, '')).join(', ')}${close}`;
  if (entries.every(([, v]) => v === null || typeof v !== 'object') && flat.length <= 160) return flat;
  const inner = `${indent}  `;
  return `${open}\n${entries.map((e) => inner + item(e, inner)).join(',\n')}\n${indent}${close}`;
}
