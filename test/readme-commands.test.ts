// The commands in README.md and docs/*.md work after `PORT=9000 npm start` (no hard-coded 8787) and name real scripts
// and commands, and their links stay inside the repository and land on headings that exist. The blocks of the pages a
// newcomer follows run, pasted in order into a fresh clone, each command's exit status and promised output checked.
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commandsOf, expectedOutput, readDocs, shellBlocks, type ShellCommand } from './helpers/doc-blocks.ts';
import { freePort, REPO } from './helpers/fixture.ts';
import { freshClone, type FreshClone } from './helpers/fresh-clone.ts';
import { PASSWORD, startPostgres, type PgServer } from './helpers/postgres.ts';
import { ShellSession, stopJob, untilServing, type Job } from './helpers/shell-session.ts';

/** Every doc, by its path from the repository's root. */
const DOCS = readDocs(REPO);

/** The lines of the ```sh blocks, each with the doc it is in. */
const shellLines = [...DOCS].flatMap(([doc, text]) =>
  shellBlocks(doc, text).flatMap((block) => block.text.split('\n').map((line) => ({ doc, line }))),
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

  it('end each JSON answer they print with a newline, so the next answer starts on a line of its own', () => {
    const printed = shellLines.filter(
      ({ line }) => /^\s*curl\s.*(?:\/external\/|\.json\b)/.test(line) && !/\s-\w*[oI]\b|\||\$\(/.test(line),
    );
    expect(printed.length).toBeGreaterThanOrEqual(8);
    expect(printed.filter(({ line }) => !line.includes(`-w '\\n'`))).toEqual([]);
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

/**
 * The pages a newcomer follows from a clone, each pasted into a shell of its own, its blocks in order where they stand.
 * Blocks marked ```sh remote are not run: they need hosts or credentials a clone does not have.
 */
const PASTED = [
  'README.md',
  'docs/aggregators.md',
  'docs/api.md',
  'docs/cli.md',
  'docs/operations.md',
  'docs/panel.md',
  'docs/partners.md',
  'docs/postgres.md',
  'docs/publishing.md',
  'docs/rental-page.md',
  'docs/webhooks.md',
  'docs/widget.md',
];
/** Pages with shell blocks that are read, not pasted, and why. */
const READ_ONLY: Record<string, string> = {
  'docs/performance.md': 'runs benches of minutes to half an hour',
  'docs/SECURITY.md': 'revokes a key by a made-up id',
};
/** Only these pages, when set (DOCS_PAGES=docs/publishing.md,...): the whole suite takes minutes. */
const ONLY = process.env.DOCS_PAGES?.split(',');
/** npm test itself and its parts, and the benches: this suite, or longer than it. */
const NOT_RUN = /^\s*npm (?:test|run (?:test|bench))\b/;
/** Commands that keep running until stopped: pasted into a terminal of their own, and stopped with Ctrl-C. */
const SERVER = /\bnpm start\b|\blistings(?:\.js)?\s+(?:serve|panel|demo)\b|\s--watch\b/;
/** What the README's first block starts, and what every other page assumes is running ("with the demo running"). */
const DEMO = 'npm start';
/** Where production blocks keep files: under the clone's stand-in for /, so that no test writes to the machine. */
const SYSTEM_PATHS = ['/var/lib/listings', '/etc/listings'];

interface Failure {
  at: string;
  command: string;
  status?: number;
  said: string;
}

describe('shell blocks pasted in order into a fresh clone', () => {
  let clone: FreshClone;
  let pg: PgServer;
  let env: NodeJS.ProcessEnv;
  let port: number;
  /** The servers left running, by port, with the command that started them: the newcomer's other terminals. */
  const servers = new Map<number, Job & { command: string }>();

  beforeAll(async () => {
    clone = freshClone();
    pg = await startPostgres();
    port = await freePort();
    // Only what the docs tell a reader to set: a free PORT, PANEL_PORT and STATIC_PORT (another engineer's demo may hold 8787 and
    // 8788), the empty database the README's "Run several nodes" names LISTINGS_PG, and libpq's variables for psql.
    env = {
      PATH: clone.path,
      HOME: clone.home,
      LANG: 'C.UTF-8',
      TERM: 'dumb',
      TMPDIR: tmpdir(),
      PORT: String(port),
      PANEL_PORT: String(await freePort()),
      STATIC_PORT: String(await freePort()),
      LISTINGS_PG: await pg.newDatabase(),
      PGHOST: '127.0.0.1',
      PGPORT: String(pg.port),
      PGUSER: 'postgres',
      PGPASSWORD: PASSWORD,
    };
  });

  /** Each page's blocks as they ran, printed once at the end for the reader of the run. */
  const report: string[] = [];

  afterAll(async () => {
    const none = pasted.filter((page) => shellBlocks(page, DOCS.get(page)!).length === 0);
    const lines = [...report, ...none.map((page) => `  ${page}: no shell blocks`)];
    if (report.length > 0) console.error(`shell blocks pasted, by their first line:\n${lines.join('\n')}`);
    for (const server of servers.values()) await stopJob(server);
    await pg?.close();
    clone?.cleanup();
  });

  it('start with the demo: the README runs it first', () => {
    expect(shellBlocks('README.md', DOCS.get('README.md')!)[0]!.text).toContain(DEMO);
  });

  /**
   * A server on `serverPort` from `command`, after stopping whatever this run left on that port; `npm start` also runs
   * the operator's panel on PANEL_PORT, so it takes that port too.
   */
  async function serve(session: ShellSession, command: string, serverPort: number): Promise<string> {
    const ports = command.includes(DEMO) ? [serverPort, Number(env.PANEL_PORT)] : [serverPort];
    for (const held of ports) {
      const previous = servers.get(held);
      if (previous) await stopJob(previous);
    }
    const job = await session.start(command);
    for (const held of ports) servers.set(held, { ...job, command });
    if (job.shell) return job.shell;
    return untilServing(job, serverPort).then(
      () => '',
      (error: Error) => error.message,
    );
  }

  async function paste(session: ShellSession, command: ShellCommand, last: boolean): Promise<Failure | undefined> {
    const at = `${command.doc}:${command.line}`;
    const text = SYSTEM_PATHS.reduce((t, path) => t.replaceAll(path, join(clone.root, path)), command.text);
    const shown = command.text.split('\n')[0]!;
    if (SERVER.test(text)) {
      // Pasted with lines after it, a server in the foreground would read them as its input.
      if (!last) return { at, command: shown, said: 'a server that is not the last command of its block' };
      const said = await serve(session, text, /\bpanel\b/.test(text) ? Number(env.PANEL_PORT) : port);
      return said ? { at, command: shown, said } : undefined;
    }
    const ran = await session.run(text).catch((error: Error) => ({ status: -1, output: '', shell: error.message }));
    const expected = expectedOutput(command);
    if (ran.status === 0 && !ran.shell && (!expected || ran.output.includes(expected))) return undefined;
    const said = ran.shell || (ran.status === 0 ? `no "${expected}" in: ` : '') + ran.output.slice(-600);
    return { at, command: shown, status: ran.status, said };
  }

  it('come from every page with shell blocks, or the page says why not', () => {
    const pages = [...DOCS.keys()].filter((page) => shellBlocks(page, DOCS.get(page)!).length > 0);
    expect(pages.filter((page) => !PASTED.includes(page) && !(page in READ_ONLY))).toEqual([]);
  });

  it('leave out only the blocks marked remote', () => {
    const blocks = PASTED.flatMap((page) => shellBlocks(page, DOCS.get(page)!));
    expect(blocks.filter((b) => b.remote).every((b) => /s3:\/\/|https:\/\/|www\.example/.test(b.text))).toBe(true);
    expect(blocks.filter((b) => b.doc === 'docs/publishing.md' && !b.remote).length).toBeGreaterThanOrEqual(4);
  });

  const pasted = PASTED.filter((page) => !ONLY || ONLY.includes(page));
  for (const doc of pasted.filter((page) => shellBlocks(page, DOCS.get(page)!).length > 0)) {
    it(`${doc}: every command exits 0 and prints what its comment says`, { timeout: 180_000 }, async () => {
      // Beside the clone, not in a folder of this test: the servers it starts outlive it, writing their logs there.
      const dir = mkdtempSync(join(clone.repo, '..', 'session-'));
      const session = new ShellSession(clone.repo, env, dir);
      const failures: Failure[] = [];
      const ran: string[] = [];
      try {
        if (doc !== 'README.md' && !servers.get(port)?.command.includes(DEMO)) {
          const said = await serve(session, DEMO, port);
          if (said) failures.push({ at: doc, command: DEMO, said });
        }
        for (const block of shellBlocks(doc, DOCS.get(doc)!).filter((b) => !b.remote)) {
          ran.push(String(block.line));
          const commands = commandsOf(block).filter((command) => !NOT_RUN.test(command.text));
          for (const [i, command] of commands.entries()) {
            const failure = await paste(session, command, i === commands.length - 1);
            if (failure) failures.push(failure);
          }
        }
      } finally {
        await session.close();
      }
      const left = shellBlocks(doc, DOCS.get(doc)!).filter((b) => b.remote);
      report.push(
        `  ${doc}: ${ran.join(' ')}${left.length ? `; not run (remote): ${left.map((b) => b.line).join(' ')}` : ''}`,
      );
      expect(failures).toEqual([]);
    });
  }
});
