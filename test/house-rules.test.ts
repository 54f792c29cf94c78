// The house rules on source files (issue 25): short files, one concern each, and comments that do not outweigh code.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const FOLDERS = ['server', 'cli', 'widget/src', 'panel/src', 'shared'];
const MEDIAN_LINES = 100;
const MAX_LINES = 500;

/** Source files under `dir`: TypeScript, not tests and not type declarations. */
function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    const source = entry.name.endsWith('.ts') && !/\.(test|d)\.ts$/.test(entry.name);
    return source ? [path] : [];
  });
}

/** Lines of a file: comment lines (`//`, and `/* ... *\/` blocks), code lines (the rest but blank ones), and all. */
export function linesOf(text: string): { lines: number; comment: number; code: number } {
  const lines = text.endsWith('\n') ? text.slice(0, -1).split('\n') : text.split('\n');
  let comment = 0;
  let code = 0;
  let inBlock = false;
  for (const raw of lines) {
    const line = raw.trim();
    if (inBlock) {
      comment++;
      inBlock = !line.includes('*/');
    } else if (line.startsWith('//')) comment++;
    else if (line.startsWith('/*')) {
      comment++;
      inBlock = !line.includes('*/');
    } else if (line !== '') code++;
  }
  return { lines: lines.length, comment, code };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

describe('linesOf', () => {
  it('counts line comments and comment blocks as comments, and a line with code and a comment as code', () => {
    const text = ['// purpose', '', '/**', ' * doc', ' */', 'const a = 1; // why', '/* one */', 'f();', ''].join('\n');
    expect(linesOf(text)).toEqual({ lines: 8, comment: 5, code: 2 });
  });
});

describe('source files in server/, cli/, widget/src, panel/src and shared/', () => {
  const files = FOLDERS.flatMap((folder) => sourceFiles(join(ROOT, folder))).map((path) => ({
    path: relative(ROOT, path),
    ...linesOf(readFileSync(path, 'utf8')),
  }));

  it(`have a median length of at most ${MEDIAN_LINES} lines`, () => {
    expect(files.length).toBeGreaterThan(50);
    expect(median(files.map((f) => f.lines))).toBeLessThanOrEqual(MEDIAN_LINES);
  });

  it(`are none longer than ${MAX_LINES} lines`, () => {
    expect(files.filter((f) => f.lines > MAX_LINES).map((f) => `${f.path}: ${f.lines}`)).toEqual([]);
  });

  it('have no more comment lines than code lines', () => {
    const wordy = files.filter((f) => f.comment > f.code);
    expect(wordy.map((f) => `${f.path}: ${f.comment} comment, ${f.code} code`)).toEqual([]);
  });
});
