// The docs stay readable: each page under 300 lines (performance.md under 250), and nothing in the tree names the
// development iterations that produced it; the history is the git log.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readDocs } from './helpers/doc-blocks.ts';
import { REPO } from './helpers/fixture.ts';

const LIMITS: Record<string, number> = { 'docs/performance.md': 250 };
const MAX_LINES = 300;
/** A development iteration named in prose, by number or as a point in time; \x20 keeps the pattern from matching itself. */
const ITERATION = /\bstops?\x20[0-9]+\b|since\x20stop|in\x20stop\x20[0-9]/i;

const linesOf = (text: string) => text.split('\n').length - (text.endsWith('\n') ? 1 : 0);

describe('docs pages', () => {
  const docs = readDocs(REPO);

  it('are found', () => {
    expect(docs.size).toBeGreaterThan(5);
  });

  it(`are each under ${MAX_LINES} lines, performance.md under ${LIMITS['docs/performance.md']}`, () => {
    const long = [...docs]
      .map(([doc, text]) => ({ doc, lines: linesOf(text), limit: LIMITS[doc] ?? MAX_LINES }))
      .filter(({ lines, limit }) => lines >= limit);
    expect(long).toEqual([]);
  });
});

describe('the tracked text files', () => {
  it('name no development iteration', () => {
    const files = execFileSync('git', ['ls-files', '-z'], { cwd: REPO, encoding: 'utf8' })
      .split('\0')
      .filter((f) => /\.(md|ts|mjs|js|json|yml|yaml|css|html)$/.test(f) && !f.endsWith('package-lock.json'));
    expect(files.length).toBeGreaterThan(100);
    const named = files.flatMap((file) => {
      let text: string;
      try {
        text = readFileSync(join(REPO, file), 'utf8');
      } catch {
        return []; // listed by git, gone from the working tree
      }
      return text
        .split('\n')
        .flatMap((line, i) => (ITERATION.test(line) ? [`${file}:${i + 1}: ${line.trim().slice(0, 120)}`] : []));
    });
    expect(named).toEqual([]);
  });
});
