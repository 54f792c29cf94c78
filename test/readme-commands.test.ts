// The commands in README.md and docs/*.md work after `PORT=9000 npm start` (no hard-coded 8787) and name real scripts
// and commands, and their links stay inside the repository and land on headings that exist.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from './helpers/fixture.ts';

/** Every doc, by its path from the repository's root. */
const DOCS = new Map(
  ['README.md', ...readdirSync(join(REPO, 'docs')).flatMap((f) => (f.endsWith('.md') ? [`docs/${f}`] : []))].map(
    (path) => [path, readFileSync(join(REPO, path), 'utf8')],
  ),
);

/** The lines of the ```sh blocks, each with the doc it is in. */
const shellLines = [...DOCS].flatMap(([doc, text]) =>
  [...text.matchAll(/^```(?:sh|bash|shell)\n([\s\S]*?)^```/gm)].flatMap((m) =>
    m[1]!.split('\n').map((line) => ({ doc, line })),
  ),
);

describe('shell examples in the docs', () => {
  const lines = shellLines.filter(({ line }) => /\b(curl|listings|bin\/listings\.js|npm run)\b/.test(line));
  /** The server's own URLs; other local services in the examples (a static file server, MinIO) have their own ports. */
  const serverUrls = (line: string) =>
    [...line.matchAll(/(?:127\.0\.0\.1|localhost):(\$\{PORT:-8787\}|8787\b)/g)].map((m) => m[1]);

  it('are found: the ones that talk to the local server', () => {
    expect(lines.filter(({ line }) => serverUrls(line).length > 0).length).toBeGreaterThanOrEqual(10);
  });

  it('take the port from PORT, 8787 only as its default', () => {
    expect(lines.filter(({ line }) => serverUrls(line).some((port) => port === '8787'))).toEqual([]);
  });

  it('run npm scripts that exist', () => {
    const pkg = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    const scripts = Object.keys(pkg.scripts);
    const used = shellLines.flatMap(({ doc, line }) =>
      [...line.matchAll(/\bnpm run ([\w:-]+)/g)].map((m) => ({ doc, script: m[1]! })),
    );
    expect(used.length).toBeGreaterThan(5);
    expect(used.filter(({ script }) => !scripts.includes(script))).toEqual([]);
  });

  it('run listings commands that the command table in docs/cli.md lists', () => {
    const table =
      /<!-- commands:start -->([\s\S]*?)<!-- commands:end -->/.exec(DOCS.get('docs/cli.md') ?? '')?.[1] ?? '';
    /** "keys" -> create, list, ...; "import" -> none (its next word is an argument). */
    const commands = new Map<string, Set<string>>();
    for (const [, name, rest] of table.matchAll(/`listings ([a-z]+)((?: [a-z]+(?:\\\|[a-z]+)*)?)/g)) {
      const subs = commands.get(name!) ?? new Set<string>();
      for (const sub of rest!.trim().split('\\|')) if (sub) subs.add(sub);
      commands.set(name!, subs);
    }
    // A command word, after an optional environment prefix: `listings`, or node running bin/listings.js.
    const run =
      /(?:^\s*|[;&|(]\s*|\$\(\s*)(?:[A-Z_]+=\S+\s+)*(?:listings|node(?:\s+--[\w-]+)*\s+\S*bin\/listings\.js)\s+([a-z]+)(?:\s+([a-z]+))?/g;
    const used = shellLines.flatMap(({ doc, line }) =>
      [...line.matchAll(run)].map((m) => ({ doc, line, name: m[1]!, sub: m[2] })),
    );
    expect(commands.size).toBeGreaterThan(5);
    expect(used.length).toBeGreaterThan(10);
    const unknown = used.filter(({ name, sub }) => {
      const subs = commands.get(name);
      return subs === undefined || (subs.size > 0 && (sub === undefined || !subs.has(sub)));
    });
    expect(unknown).toEqual([]);
  });
});

/** GitHub's anchors: lower case, punctuation dropped, spaces to hyphens; a repeated heading gets -1, -2, ... */
function anchorsOf(text: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  const outsideCode = text.replace(/^```[\s\S]*?^```/gm, '');
  for (const [, heading] of outsideCode.matchAll(/^#{1,6} (.+)$/gm)) {
    const slug = heading!
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    anchors.add(n === 0 ? slug : `${slug}-${n}`);
  }
  return anchors;
}

describe('links in the docs', () => {
  const links = [...DOCS].flatMap(([doc, text]) =>
    [...text.replace(/^```[\s\S]*?^```/gm, '').matchAll(/\]\(([^)\s]+)\)/g)].map((m) => ({ doc, target: m[1]! })),
  );
  const local = links.filter(({ target }) => !/^(https?:|mailto:)/.test(target));
  /** The file a link points at, from the repository's root ('' when outside it). */
  const fileOf = (doc: string, target: string) => {
    const path = target.startsWith('#') ? join(REPO, doc) : resolve(REPO, dirname(doc), target.split('#')[0]!);
    const rel = relative(REPO, path);
    return rel.startsWith('..') ? '' : rel;
  };

  it('are found in every doc', () => {
    expect([...DOCS.keys()].filter((doc) => !links.some((l) => l.doc === doc))).toEqual([]);
  });

  it('to files point at files inside the repository', () => {
    const outside = local.filter(({ doc, target }) => {
      const file = fileOf(doc, target);
      return file === '' || !existsSync(join(REPO, file));
    });
    expect(outside).toEqual([]);
    for (const text of DOCS.values()) expect(text).not.toMatch(/\.\.\/shared\//);
  });

  it('to sections point at headings that exist', () => {
    const broken = local.filter(({ doc, target }) => {
      if (!target.includes('#')) return false;
      const file = fileOf(doc, target);
      const text = DOCS.get(file) ?? (existsSync(join(REPO, file)) ? readFileSync(join(REPO, file), 'utf8') : '');
      return !anchorsOf(text).has(target.split('#')[1]!);
    });
    expect(broken).toEqual([]);
  });
});
