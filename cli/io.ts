// Where a command's output goes: the real terminal in main.ts, buffers in tests.
import { ListingsError } from '../server/errors.ts';

export interface Io {
  out(text: string): void;
  err(text: string): void;
  readStdin(): Promise<string>;
  env: NodeJS.ProcessEnv;
  isTTY: boolean;
}

export function processIo(): Io {
  return {
    out: (t) => process.stdout.write(t.endsWith('\n') ? t : `${t}\n`),
    err: (t) => process.stderr.write(t.endsWith('\n') ? t : `${t}\n`),
    readStdin: async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks).toString('utf8');
    },
    env: process.env,
    isTTY: Boolean(process.stdout.isTTY),
  };
}

/** Plain aligned columns for people; --json gives machines the same rows. */
export function table(rows: readonly object[], columns: string[]): string {
  const cell = (v: unknown) =>
    v === null || v === undefined ? '-' : Array.isArray(v) ? v.join(',') || '-' : String(v);
  const widths = columns.map((c) =>
    Math.max(c.length, ...rows.map((r) => cell((r as Record<string, unknown>)[c]).length)),
  );
  const line = (values: string[]) =>
    values
      .map((v, i) => v.padEnd(widths[i]!))
      .join('  ')
      .trimEnd();
  return [
    line(columns.map((c) => c.toUpperCase())),
    ...rows.map((r) => line(columns.map((c) => cell((r as Record<string, unknown>)[c])))),
  ].join('\n');
}

export function json(value: unknown): string {
  return JSON.stringify(value, null, 2);
}

export function parsePositiveInt(name: string) {
  return (value: string): number => {
    const n = Number(value);
    if (!Number.isInteger(n) || n <= 0)
      throw new ListingsError('invalid_argument', `${name} must be a positive whole number, got "${value}"`);
    return n;
  };
}
