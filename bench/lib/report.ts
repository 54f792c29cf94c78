// What the bench prints and records: the machine, one text table for every scenario, and the results file's text.
import { cpus, loadavg, totalmem } from 'node:os';
import type { Ratios, Side } from './measure.ts';

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

const fmt = (c: string | number) =>
  typeof c === 'string' ? c : Number.isNaN(c) ? '-' : Math.abs(c) >= 1000 ? c.toLocaleString('en-US') : String(c);

/** Fixed-width text table; numbers right-aligned. */
export function table(head: string[], rows: (string | number)[][]): string {
  const cells = [head, ...rows.map((r) => r.map(fmt))];
  const widths = head.map((_, i) => Math.max(...cells.map((r) => (r[i] ?? '').length)));
  const line = (r: string[]) => r.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  return [line(head), widths.map((w) => '-'.repeat(w)).join('  '), ...cells.slice(1).map(line)].join('\n') + '\n';
}

/** Servers side by side, one row each, then how one compares with another: [label, ratios] (none when undefined). */
export function sidesTable(names: string[], sides: Side[], ...ratios: [string, Ratios | undefined][]): string {
  const rows = sides.map((s, i) => [
    names[i]!,
    s.rps,
    `${s.p50_ms} / ${s.p99_ms}`,
    s.cpu_us_per_req,
    s.core_busy,
    s.rss_mb,
  ]);
  const lines = ratios.flatMap(([label, x]) => {
    if (!x) return [];
    const [lo, hi] = x.ratio_rps_interval;
    return [
      `${label}, median of paired rounds: req/s ${x.ratio_rps} (95 % ${lo}-${hi}), p99 ${x.ratio_p99}, CPU ${x.ratio_cpu}\n`,
    ];
  });
  return table(['server', 'req/s', 'p50 / p99 ms', 'CPU µs/req', 'core busy', 'peak RSS MB'], rows) + lines.join('');
}

/** A results file's text: an object or array of plain values on one line when short. */
export function resultsText(value: unknown, indent = ''): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  const entries = Array.isArray(value)
    ? value.map((v) => [undefined, v] as const)
    : Object.entries(value).filter(([, v]) => v !== undefined);
  const [open, close] = Array.isArray(value) ? ['[', ']'] : ['{', '}'];
  const item = ([k, v]: readonly [string | undefined, unknown], at: string) =>
    `${k === undefined ? '' : `${JSON.stringify(k)}: `}${resultsText(v, at)}`;
  const flat = `${open}${entries.map((e) => item(e, '')).join(', ')}${close}`;
  if (entries.every(([, v]) => v === null || typeof v !== 'object') && flat.length <= 160) return flat;
  const inner = `${indent}  `;
  return `${open}\n${entries.map((e) => inner + item(e, inner)).join(',\n')}\n${indent}${close}`;
}
