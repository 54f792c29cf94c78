// The README's commands work after `PORT=9000 npm start` (no hard-coded 8787), and its links stay inside the repository.
import { existsSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from './helpers/fixture.ts';

const README = readFileSync(join(REPO, 'README.md'), 'utf8');

/** The bodies of the ```sh blocks. */
const shellBlocks = [...README.matchAll(/^```(?:sh|bash|shell)\n([\s\S]*?)^```/gm)].map((m) => m[1]!);

describe('README shell examples', () => {
  const lines = shellBlocks
    .flatMap((block) => block.split('\n'))
    .filter((line) => /\b(curl|listings|bin\/listings\.js|npm run)\b/.test(line));
  /** The server's own URLs; other local services in the examples (a static file server, MinIO) have their own ports. */
  const serverUrls = (line: string) =>
    [...line.matchAll(/(?:127\.0\.0\.1|localhost):(\$\{PORT:-8787\}|8787\b)/g)].map((m) => m[1]);

  it('are found: the ones that talk to the local server', () => {
    expect(lines.filter((line) => serverUrls(line).length > 0).length).toBeGreaterThanOrEqual(10);
  });

  it('take the port from PORT, 8787 only as its default', () => {
    expect(lines.filter((line) => serverUrls(line).some((port) => port === '8787'))).toEqual([]);
  });
});

describe('README links', () => {
  const targets = [...README.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!);

  it('to files point at files inside the repository', () => {
    const files = targets.filter((t) => !/^(https?:|mailto:|#)/.test(t));
    const outside = files.filter((t) => {
      const path = resolve(REPO, t.split('#')[0]!);
      return relative(REPO, path).startsWith('..') || !existsSync(path);
    });
    expect(outside).toEqual([]);
    expect(README).not.toMatch(/\.\.\/shared\//);
  });

  it('to sections point at headings that exist', () => {
    // GitHub's anchors: lower case, punctuation dropped, spaces to hyphens.
    const slug = (heading: string) =>
      heading
        .toLowerCase()
        .replace(/[^\p{L}\p{N}\s_-]/gu, '')
        .replace(/\s/g, '-');
    const anchors = new Set([...README.matchAll(/^#{1,6} (.+)$/gm)].map((m) => slug(m[1]!)));
    const broken = targets.filter((t) => t.startsWith('#') && !anchors.has(t.slice(1)));
    expect(broken).toEqual([]);
  });
});
