// The servers under test as child processes, pinned to one core while the load generator keeps the other.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { freePort } from '../../tools/launch.ts';
import { REPO_ROOT } from '../../server/repo.ts';

export const REPO = REPO_ROOT;
export const SERVER_CORE = '0';
let pinned = false;

/** Pins this process to core 1, so that each server started afterwards has core 0; says how the run is pinned. */
export function pinLoadGenerator(cores: number): string {
  if (cores < 2) return 'not pinned: one core';
  if (spawnSync('taskset', ['-a', '-p', '-c', '1', String(process.pid)]).status !== 0)
    return 'not pinned: taskset is not installed';
  pinned = true;
  return `pinned: servers on core ${SERVER_CORE} (one at a time under load), load generator on core 1`;
}

/** `node FLAGS ARGS` (a base checkout's own V8 flags, if it has any) on the servers' core; taskset execs node, so the
 * child's pid is the server's own. */
export function spawnServer(
  args: string[],
  env: Record<string, string> = {},
  flags: readonly string[] = [],
): ChildProcess {
  // BENCH_CPU_PROF=DIR: each server writes a CPU profile there when it stops.
  const dir = process.env.BENCH_CPU_PROF;
  const prof = dir ? ['--cpu-prof', '--cpu-prof-interval', '100', '--cpu-prof-dir', dir] : [];
  const node = [process.execPath, ...prof, ...flags, ...args];
  const options = { cwd: REPO, stdio: 'pipe' as const, env: { ...process.env, ...env } };
  return pinned ? spawn('taskset', ['-c', SERVER_CORE, ...node], options) : spawn(node[0]!, node.slice(1), options);
}

export interface ServerProcess {
  name: string;
  url: string;
  /** The operator's panel in the same process (`serve --panel`). */
  panelUrl?: string;
  pid: number;
  child: ChildProcess;
  stop(): Promise<void>;
}

export const stopper = (child: ChildProcess) => (): Promise<void> =>
  new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    const force = setTimeout(() => child.kill('SIGKILL'), 15_000);
    child.once('exit', () => resolve(clearTimeout(force)));
    child.kill('SIGTERM');
  });

/** log: the request log on instead of --quiet; checkout: another built checkout's `listings` (the A/B's base);
 * trustProxy: believe X-Forwarded-For from this address, as behind a TLS proxy; panel: `serve --panel`; env: more
 * environment (the webhooks' receiver). */
type OursOptions = {
  log?: boolean;
  checkout?: string;
  trustProxy?: string;
  panel?: boolean;
  env?: Record<string, string>;
};

/** `listings serve` on a free port; a real port rather than 0, since the public URL in the bodies carries it. */
export async function startOurs(name: string, db: string, opts: OursOptions = {}): Promise<ServerProcess> {
  const port = String(await freePort());
  if (opts.checkout !== undefined && !db.startsWith('postgres')) db = await atSchemaOf(opts.checkout, db);
  const args = [join(opts.checkout ?? REPO, 'bin', 'listings.js'), 'serve', '--port', port, '--db', db];
  if (!opts.log) args.push('--quiet');
  if (db.startsWith('postgres')) args.push('--public-url', `http://127.0.0.1:${port}`);
  if (opts.trustProxy) args.push('--trust-proxy', opts.trustProxy);
  const env: Record<string, string> = { ...opts.env, ...(opts.panel ? { PANEL_PORT: String(await freePort()) } : {}) };
  if (opts.panel) args.push('--panel');
  // A base checkout runs with its own flags, as its `listings serve` would: a flag is one of the changes measured.
  const flags = opts.checkout === undefined ? [] : await flagsOf(opts.checkout);
  const child = spawnServer(args, env, flags);
  child.stdout!.resume();
  const [[url], panel] = await Promise.all([
    printed(child, name, /serving .* at (http:\S+) /, 'stderr'),
    opts.panel ? printed(child, name, /panel for .* at (http:\S+) /, 'stderr') : [],
  ]);
  return { name, url: url!, panelUrl: panel[0], pid: child.pid!, child, stop: stopper(child) };
}

/** A copy of SQLite database `db` that an older checkout opens: migrations only add tables, columns and indexes, which
 * the older build ignores, so the copy claims the checkout's schema version (a build refuses a newer one). */
async function flagsOf(checkout: string): Promise<readonly string[]> {
  const file = join(checkout, 'server', 'node-flags.ts');
  if (!existsSync(file)) return [];
  return ((await import(file)) as { SERVER_NODE_FLAGS: readonly string[] }).SERVER_NODE_FLAGS;
}

let baseCopies = 0;
async function atSchemaOf(checkout: string, db: string): Promise<string> {
  const { SCHEMA_VERSION } = (await import(join(checkout, 'server', 'store', 'migrations.ts'))) as {
    SCHEMA_VERSION: number;
  };
  const copy = `${db}.base-${++baseCopies}`;
  const source = new Database(db, { readonly: true });
  source.exec(`VACUUM INTO '${copy.replaceAll("'", "''")}'`);
  source.close();
  const target = new Database(copy);
  if ((target.pragma('user_version', { simple: true }) as number) > SCHEMA_VERSION)
    target.pragma(`user_version = ${SCHEMA_VERSION}`);
  target.close();
  return copy;
}

/** The groups of `re`'s first match in what the child prints on `stream`; rejects if it exits first. */
export function printed(child: ChildProcess, name: string, re: RegExp, stream: 'stdout' | 'stderr') {
  return new Promise<string[]>((resolve, reject) => {
    let text = '';
    child[stream]!.on('data', (d: Buffer) => {
      const m = re.exec((text += d.toString()));
      if (m) resolve(m.slice(1));
    });
    child.once('exit', (code) => reject(new Error(`${name} exited with ${code}: ${text}`)));
  });
}
