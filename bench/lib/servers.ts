// The servers under test as child processes: ours (`listings serve`) and the peer (bench/peer-fastify.ts), like the
// ceilings (ceilings.ts) pinned to one core while the load generator (this process) keeps the other.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { build } from 'vite';
import { freePort } from '../../tools/launch.ts';
import { SERVER_NODE_FLAGS } from '../../server/node-flags.ts';
import { REPO_ROOT } from '../../server/repo.ts';

export const REPO = REPO_ROOT;

/** The cores: servers on SERVER_CORE (taking turns), the load generator on LOAD_CORE. */
const SERVER_CORE = '0';
const LOAD_CORE = '1';
let pinning = false;

/**
 * Pins this process (the load generator: autocannon runs in it, wrk is its child) to one core, so that every server
 * started afterwards can have the other to itself. Returns how the run is pinned, or why it is not.
 */
export function pinLoadGenerator(cores: number): string {
  if (cores < 2) return 'not pinned: one core';
  if (spawnSync('taskset', ['-a', '-p', '-c', LOAD_CORE, String(process.pid)]).status !== 0)
    return 'not pinned: taskset is not installed';
  pinning = true;
  return `pinned: servers on core ${SERVER_CORE} (one at a time under load), load generator on core ${LOAD_CORE}`;
}

/**
 * `node FLAGS SCRIPT ARGS`, on the servers' core when pinning. Every server (ours, the ceiling, the peer) runs with the
 * V8 flags that `listings serve` runs with (its shebang): the same runtime on both sides of a ratio.
 */
export function spawnServer(
  args: string[],
  stdio: ('ignore' | 'pipe' | 'inherit')[],
  env?: Record<string, string>,
): ChildProcess {
  const node = [process.execPath, ...SERVER_NODE_FLAGS, ...args];
  const options = { cwd: REPO, stdio, env: env && { ...process.env, ...env } };
  // taskset execs the command: the child's pid is the server's own, for its CPU time.
  return pinning ? spawn('taskset', ['-c', SERVER_CORE, ...node], options) : spawn(node[0]!, node.slice(1), options);
}

export interface ServerProcess {
  name: string;
  url: string;
  /** The operator's panel in the same process (`serve --panel`), when started with it. */
  panelUrl?: string;
  pid: number;
  child: ChildProcess;
  stop(): Promise<void>;
}

export function stopper(child: ChildProcess): () => Promise<void> {
  return () =>
    new Promise((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      const force = setTimeout(() => child.kill('SIGKILL'), 15_000);
      child.once('exit', () => {
        clearTimeout(force);
        resolve();
      });
      child.kill('SIGTERM');
    });
}

/** Where compileBenchServers() puts the bench's own servers (inside the repository, so their imports resolve). */
export const BENCH_DIST = join(REPO, 'dist', 'bench');

/**
 * The bench's own servers (the 401 scenario's app with the failed-auth limit lifted, and the Fastify peer), and the
 * abuse scenario's abuser and partner, compiled to plain JavaScript, so that they run on plain node like `listings` and
 * the ceiling: under tsx's loader they would pay CPU per request that no server in production pays, and the comparison
 * would flatter us.
 */
export async function compileBenchServers(): Promise<void> {
  await build({
    configFile: false,
    root: REPO,
    logLevel: 'warn',
    publicDir: false,
    build: {
      outDir: BENCH_DIST,
      emptyOutDir: true,
      ssr: true,
      target: 'node20',
      minify: false,
      copyPublicDir: false,
      rolldownOptions: {
        input: {
          'serve-open-auth': join(REPO, 'bench', 'lib', 'serve-open-auth.ts'),
          'peer-fastify': join(REPO, 'bench', 'peer-fastify.ts'),
          abuser: join(REPO, 'bench', 'lib', 'abuser.ts'),
          partner: join(REPO, 'bench', 'lib', 'partner.ts'),
        },
        output: { format: 'es', entryFileNames: '[name].mjs', chunkFileNames: '[name]-[hash].mjs' },
      },
    },
  });
}

/**
 * `node --no-memory-reducer bin/listings.js serve --port P --db FILE --quiet`, as the binary's shebang runs it (that of
 * another built checkout with `checkout`, for bench/ab.ts); with
 * log=true the request log goes to /dev/null instead of --quiet. With openAuth=true, the same app with the failed-auth
 * limit lifted (serve-open-auth.ts, compiled). With trustProxy, the server believes X-Forwarded-For from that address,
 * as behind a TLS proxy: `--trust-proxy` where `listings serve` has it, else `TRUST_PROXY`. With panel=true, the
 * operator's panel in the same process on a port of its own, as `listings serve --panel` runs it.
 */
export async function startOurs(
  name: string,
  dbFile: string,
  opts: {
    log?: boolean;
    openAuth?: boolean;
    noHold?: boolean;
    checkout?: string;
    trustProxy?: string;
    panel?: boolean;
  } = {},
): Promise<ServerProcess> {
  // A real port rather than 0: the public URL (and so the rent links in the bodies) carries it.
  const port = String(await freePort());
  const args = opts.noHold
    ? [join(BENCH_DIST, 'serve-open-auth.mjs'), dbFile, port, 'no-hold']
    : opts.openAuth
      ? [join(BENCH_DIST, 'serve-open-auth.mjs'), dbFile, port]
      : [join(opts.checkout ?? REPO, 'bin', 'listings.js'), 'serve', '--port', port, '--db', dbFile];
  if (!opts.log && !opts.openAuth && !opts.noHold) args.push('--quiet');
  // `serve` on PostgreSQL needs PUBLIC_URL: the node's own address, as it has on a file.
  if (dbFile.startsWith('postgres') && !opts.openAuth && !opts.noHold)
    args.push('--public-url', `http://127.0.0.1:${port}`);
  const trust = opts.trustProxy;
  const byFlag = trust !== undefined && !opts.openAuth && !opts.noHold && serveHasFlag('--trust-proxy', opts.checkout);
  if (byFlag) args.push('--trust-proxy', trust);
  const env: Record<string, string> = trust !== undefined && !byFlag ? { TRUST_PROXY: trust } : {};
  if (opts.panel) {
    args.push('--panel');
    env.PANEL_PORT = String(await freePort());
  }
  return started(name, spawnServer(args, ['ignore', 'ignore', 'pipe'], env), opts.panel);
}

/** Whether `listings serve --help` lists this flag. */
export function serveHasFlag(flag: string, checkout = REPO): boolean {
  const help = spawnSync(process.execPath, [join(checkout, 'bin', 'listings.js'), 'serve', '--help'], {
    cwd: REPO,
    encoding: 'utf8',
  });
  return help.stdout.includes(`${flag} `);
}

/** The Fastify peer over the same database (it queries and serialises per request). */
export async function startPeer(dbFile: string): Promise<ServerProcess> {
  const port = String(await freePort());
  return started(
    'peer (Fastify 5)',
    spawnServer([join(BENCH_DIST, 'peer-fastify.mjs'), dbFile, port], ['ignore', 'ignore', 'pipe']),
  );
}

/** Resolves once the server prints "at URL " on stderr (and with a panel, its "panel for ... at URL "). */
function started(name: string, child: ChildProcess, panel = false): Promise<ServerProcess> {
  return new Promise((resolve, reject) => {
    let stderr = '';
    child.stderr!.on('data', (d: Buffer) => {
      stderr += d.toString();
      const m = /at (http:\/\/[^\s]+) /.exec(stderr);
      const p = panel ? /panel for .* at (http:\/\/[^\s]+) /.exec(stderr) : undefined;
      if (m && (!panel || p))
        resolve({ name, url: m[1]!, panelUrl: p?.[1], pid: child.pid!, child, stop: stopper(child) });
    });
    child.once('exit', (code) => reject(new Error(`${name} exited with ${code}: ${stderr}`)));
  });
}
