// Formatting for docs:figures: bench results read as they come, figures and Markdown tables as the docs print them.

export type Json = Record<string, unknown>;

// The files are read as they come: a part a run did not write is left out.
export const obj = (x: unknown): Json => (x !== null && typeof x === 'object' && !Array.isArray(x) ? (x as Json) : {});
export const list = (x: unknown): unknown[] => (Array.isArray(x) ? x : []);
/** The entries of `x` whose values are objects with a number at `key` (sides have `rps`, latencies `p99_ms`). */
export const having = (x: unknown, key: string): [string, Json][] =>
  Object.entries(obj(x)).flatMap(([k, v]) => (typeof obj(v)[key] === 'number' ? [[k, obj(v)] as [string, Json]] : []));

/** A figure as the docs print it: thousands separated, '–' for none. */
export function num(x: unknown): string {
  if (typeof x !== 'number' || Number.isNaN(x)) return '–';
  if (Number.isInteger(x) && Math.abs(x) >= 1000) return x.toLocaleString('en-US');
  return String(Math.round(x * 1000) / 1000);
}
export const pct = (x: unknown) => (typeof x === 'number' ? `${Math.round(x * 100)} %` : '–');
export const two = (a: unknown, b: unknown, f: (x: unknown) => string = num) => `${f(a)} / ${f(b)}`;
export const words = (key: string) => key.replace(/_/g, ' ');
export const counts = (x: unknown) =>
  Object.entries(obj(x))
    .map(([k, n]) => `${k} ×${num(n)}`)
    .join(', ');
export const kib = (x: unknown) => (typeof x === 'number' ? `${(x / 1024).toFixed(1)} KiB` : '–');
export const at = (date: unknown) =>
  typeof date === 'string' ? `${date.slice(0, 10)} ${date.slice(11, 16)} UTC` : 'unknown';

/** A Markdown table: a label column, then right-aligned figures, each made by its column's function. */
export function table<T>(label: string, columns: [string, (row: T) => string][], rows: [string, T][]): string {
  const line = (cells: string[]) => `| ${cells.map((c) => c.replace(/\|/g, '\\|')).join(' | ')} |`;
  return [
    line([label, ...columns.map(([head]) => head)]),
    `|---|${columns.map(() => '---:').join('|')}|`,
    ...rows.map(([name, row]) => line([name, ...columns.map(([, cell]) => cell(row))])),
  ].join('\n');
}
