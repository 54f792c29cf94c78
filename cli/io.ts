// Where a command's output goes: the real terminal in main.ts, buffers in tests.
import { ANY_CONTROL } from '../shared/control-characters.ts';
import { ListingsError } from '../server/errors.ts';

export interface Io {
  out(text: string): void;
  err(text: string): void;
  /** Standard input's bytes (an in-memory Io may give text), read up to a little past `maxBytes` and no further. */
  readStdin(maxBytes: number): Promise<Uint8Array | string>;
  env: NodeJS.ProcessEnv;
  isTTY: boolean;
  /** Asks on the terminal without echoing the answer; absent when standard input is not a terminal. */
  readSecret?: (prompt: string) => Promise<string>;
}

export function processIo(): Io {
  return {
    out: (t) => process.stdout.write(t.endsWith('\n') ? t : `${t}\n`),
    err: (t) => process.stderr.write(t.endsWith('\n') ? t : `${t}\n`),
    readStdin: (maxBytes) => bytesOf(process.stdin, maxBytes),
    env: process.env,
    isTTY: Boolean(process.stdout.isTTY),
    ...(process.stdin.isTTY ? { readSecret: promptHidden } : {}),
  };
}

/** One line from the terminal, typed without echo (a password must not stay on screen or in scrollback). */
function promptHidden(prompt: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const stdin = process.stdin;
    let answer = '';
    // Raw before the prompt shows: nothing typed after it is echoed, and Ctrl-C comes as a character, not a signal.
    stdin.setRawMode(true);
    process.stderr.write(prompt);
    stdin.resume();
    stdin.setEncoding('utf8');
    const done = (err?: Error) => {
      stdin.setRawMode(false);
      stdin.pause();
      stdin.off('data', onData);
      process.stderr.write('\n');
      if (err) reject(err);
      else resolve(answer);
    };
    const onData = (chunk: string) => {
      for (const ch of chunk) {
        if (ch === '\r' || ch === '\n') return done();
        // Ctrl-C: raw mode turned it into a character; it stops the command as the signal would.
        if (ch === '\u0003') return done(new ListingsError('interrupted', 'interrupted'));
        if (ch === '\u007f' || ch === '\b') answer = answer.slice(0, -1);
        else answer += ch;
      }
    };
    stdin.on('data', onData);
  });
}

/**
 * A stream's bytes, undecoded (the reader decides what invalid text means), read until its end or until more than
 * `maxBytes` have come: the caller refuses that much, and nothing more is read into memory.
 */
export async function bytesOf(stream: AsyncIterable<Uint8Array>, maxBytes: number): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  let total = 0;
  for await (const chunk of stream) {
    chunks.push(chunk);
    total += chunk.length;
    if (total > maxBytes) break;
  }
  return Buffer.concat(chunks);
}

/** A control character as `\u001b`: a cell never moves the cursor, clears the screen or starts a new row. */
const CONTROL = new RegExp(ANY_CONTROL.source, 'g');
const visible = (text: string) => text.replace(CONTROL, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

/** Plain aligned columns for people, control characters shown escaped; --json gives machines the same rows. */
export function table(rows: readonly object[], columns: string[]): string {
  const cell = (v: unknown) =>
    visible(v === null || v === undefined ? '-' : Array.isArray(v) ? v.join(',') || '-' : String(v));
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
