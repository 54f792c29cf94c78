// The servers under test as child processes: ours (`listings serve`), the ceiling (bench/ceiling.mjs) and the peer
// (bench/peer-fastify.ts), all pinned to one core while the load generator (this process) keeps the other.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { get, type Agent } from 'node:http';
import { build } from 'vite';
import { freePort } from '../../tools/launch.ts';
import { SERVER_NODE_FLAGS } from '../../server/node-flags.ts';
import { REPO_ROOT } from '../../server/repo.ts';

export const REPO = REPO_ROOT;

export interface CapturedAnswer {
  status: number;
  /** Flat [name, value, name, value, ...] as our server sent them, minus what Node adds itself (Date, Connection, Keep-Alive). */
  headers: string[];
  body: string; // base64
}

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
 * V8 flags that `listings serve` runs with (its shebang): the same runtime on both sides of a ratio. Without
 * --no-memory-reducer, the reducer's collection ~100 s into a run slowed our server by 2 µs per request from then on.
 */
function spawnServer(
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
  pid: number;
  child: ChildProcess;
  stop(): Promise<void>;
}

/** Resident set size of a process in MB (VmRSS), or NaN once it has gone. */
export function rssMb(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : NaN;
  } catch {
    return NaN;
  }
}

function stopper(child: ChildProcess): () => Promise<void> {
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

const CLOCK_TICKS = 100; // USER_HZ: 100 on every Linux this runs on

/** CPU time (user + system) a process has used so far, in milliseconds; NaN once it has gone. */
export function cpuMs(pid: number): number {
  try {
    // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
  } catch {
    return NaN;
  }
}

/**
 * How long other processes kept a server's main thread (a Node server's event loop) from its core while it was ready
 * to run, in milliseconds so far: its wait on the run queue (/proc/PID/schedstat) less the CPU time of its own other
 * threads (GC helpers, libuv's pool), which share its pinned core. NaN once it has gone.
 */
export function waitedForCoreMs(pid: number): number {
  try {
    const [running, waiting] = readFileSync(`/proc/${pid}/schedstat`, 'utf8').split(' ').map(Number);
    return waiting! / 1e6 - (cpuMs(pid) - running! / 1e6);
  } catch {
    return NaN;
  }
}

/** CPU time of this process (the load generator) and of its children that have exited (wrk), in milliseconds. */
export function generatorCpuMs(): number {
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ');
  return ((Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14])) * 1000) / CLOCK_TICKS;
}

/** Where compileBenchServers() puts the bench's own servers (inside the repository, so their imports resolve). */
export const BENCH_DIST = join(REPO, 'dist', 'bench');

/**
 * The bench's own servers (the 401 scenario's app with the failed-auth limit lifted, and the Fastify peer), and the
 * abuse scenario's abuser, compiled to plain JavaScript, so that they run on plain node like `listings` and the
 * ceiling: under tsx's loader they would pay CPU per request that no server in production pays, and the comparison
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
 * as behind a TLS proxy: `--trust-proxy` where `listings serve` has it, else `TRUST_PROXY`.
 */
export async function startOurs(
  name: string,
  dbFile: string,
  opts: { log?: boolean; openAuth?: boolean; noHold?: boolean; checkout?: string; trustProxy?: string } = {},
): Promise<ServerProcess> {
  // A real port rather than 0: the public URL (and so the rent links in the bodies) carries it.
  const port = String(await freePort());
  const args = opts.noHold
    ? [join(BENCH_DIST, 'serve-open-auth.mjs'), dbFile, port, 'no-hold']
    : opts.openAuth
      ? [join(BENCH_DIST, 'serve-open-auth.mjs'), dbFile, port]
      : [join(opts.checkout ?? REPO, 'bin', 'listings.js'), 'serve', '--port', port, '--db', dbFile];
  if (!opts.log && !opts.openAuth && !opts.noHold) args.push('--quiet');
  const trust = opts.trustProxy;
  const byFlag = trust !== undefined && !opts.openAuth && !opts.noHold && serveHasFlag('--trust-proxy', opts.checkout);
  if (byFlag) args.push('--trust-proxy', trust);
  const env = trust !== undefined && !byFlag ? { TRUST_PROXY: trust } : undefined;
  return started(name, spawnServer(args, ['ignore', 'ignore', 'pipe'], env));
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

/** Resolves once the server prints "at URL " on stderr. */
function started(name: string, child: ChildProcess): Promise<ServerProcess> {
  return new Promise((resolve, reject) => {
    let stderr = '';
    child.stderr!.on('data', (d: Buffer) => {
      stderr += d.toString();
      const m = /at (http:\/\/[^\s]+) /.exec(stderr);
      if (m) resolve({ name, url: m[1]!, pid: child.pid!, child, stop: stopper(child) });
    });
    child.once('exit', (code) => reject(new Error(`${name} exited with ${code}: ${stderr}`)));
  });
}

export interface Ceiling extends ServerProcess {
  /** Makes the running ceiling answer `answer` from now on (it reads the file again on SIGUSR2 and says so). */
  serve(answer: CapturedAnswer): Promise<void>;
}

/**
 * The ceiling, plain `node bench/ceiling.mjs`, answering exactly `answer` (status, headers, bytes) until serve() gives
 * it the next one: one process serves the scenarios of one server of ours in turn, with the same history as that server.
 */
export function startCeiling(answer: CapturedAnswer): Promise<Ceiling> {
  const file = join(tmpdir(), `bench-ceiling-${process.pid}-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(file, JSON.stringify(answer));
  const child = spawnServer([join(REPO, 'bench', 'ceiling.mjs'), file], ['ignore', 'pipe', 'ignore']);
  let stdout = '';
  let loads = 1;
  const waiting = new Set<() => void>();
  child.stdout!.on('data', (d: Buffer) => {
    stdout += d.toString();
    for (const check of waiting) check();
  });
  /** Resolves with the first match of `re` in what the ceiling printed; rejects if it exits first. */
  const printed = (re: RegExp) =>
    new Promise<RegExpExecArray>((resolve, reject) => {
      const check = () => {
        const m = re.exec(stdout);
        if (m) {
          waiting.delete(check);
          child.off('exit', exited);
          resolve(m);
        }
      };
      const exited = (code: number | null) => {
        waiting.delete(check);
        reject(new Error(`ceiling exited with ${code}`));
      };
      child.once('exit', exited);
      waiting.add(check);
      check();
    });
  return printed(/\{"port":(\d+)\}/).then((m) => ({
    name: 'ceiling',
    url: `http://127.0.0.1:${m[1]}`,
    pid: child.pid!,
    child,
    stop: async () => {
      await stopper(child)();
      rmSync(file, { force: true });
    },
    serve: async (next: CapturedAnswer) => {
      writeFileSync(file, JSON.stringify(next));
      loads++;
      child.kill('SIGUSR2');
      await printed(new RegExp(`\\{"answer":${loads}\\}`));
    },
  }));
}

export interface CeilingMix extends ServerProcess {
  /** How many requests it had no captured answer for (it answered those 500). */
  misses(): Promise<number>;
}

/**
 * The field mix's ceiling, plain `node bench/ceiling-mix.mjs`, answering each request of the mix with ours' captured
 * answer to it (the file's format is described there).
 */
export async function startCeilingMix(file: string): Promise<CeilingMix> {
  const child = spawnServer([join(REPO, 'bench', 'ceiling-mix.mjs'), file], ['ignore', 'pipe', 'inherit']);
  let stdout = '';
  const waiting = new Set<() => void>();
  child.stdout!.on('data', (d: Buffer) => {
    stdout += d.toString();
    for (const check of waiting) check();
  });
  /** The first match of `re` in what the ceiling printed after `from`, as [match, end]. */
  const printed = (re: RegExp, from: number) =>
    new Promise<[RegExpExecArray, number]>((resolve, reject) => {
      const check = () => {
        const m = re.exec(stdout.slice(from));
        if (!m) return;
        waiting.delete(check);
        child.off('exit', exited);
        resolve([m, from + m.index + m[0].length]);
      };
      const exited = (code: number | null) => {
        waiting.delete(check);
        reject(new Error(`the field mix's ceiling exited with ${code}`));
      };
      child.once('exit', exited);
      waiting.add(check);
      check();
    });
  let [m, read] = await printed(/\{"port":(\d+)\}/, 0);
  return {
    name: 'ceiling (replays the mix)',
    url: `http://127.0.0.1:${m[1]}`,
    pid: child.pid!,
    child,
    stop: stopper(child),
    misses: async () => {
      child.kill('SIGUSR2');
      [m, read] = await printed(/\{"misses":(\d+)\}/, read);
      return Number(m[1]);
    },
  };
}

/** Headers Node's http server adds by itself, on both servers alike. */
const ADDED_BY_NODE = new Set(['date', 'connection', 'keep-alive']);

/** One answer of a server, as the ceiling must replay it (on a new connection unless `agent` keeps them). */
export function capture(
  url: string,
  headers: Record<string, string>,
  agent: Agent | false = false,
): Promise<CapturedAnswer> {
  return new Promise((resolve, reject) => {
    get(url, { headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const raw = res.rawHeaders;
        const flat: string[] = [];
        for (let i = 0; i < raw.length; i += 2)
          if (!ADDED_BY_NODE.has(raw[i]!.toLowerCase())) flat.push(raw[i]!, raw[i + 1]!);
        resolve({ status: res.statusCode!, headers: flat, body: Buffer.concat(chunks).toString('base64') });
      });
    }).on('error', reject);
  });
}

/** The parts of an answer that may differ between two requests to our server (per-request values). */
const PER_REQUEST = new Set(['x-request-id', 'ratelimit']);

/** Same status, header names and values (per-request ones by length), and body bytes; returns what differs. */
export function differences(a: CapturedAnswer, b: CapturedAnswer): string[] {
  const out: string[] = [];
  if (a.status !== b.status) out.push(`status ${a.status} != ${b.status}`);
  if (a.body !== b.body) out.push('body bytes differ');
  const names = (h: string[]) => h.filter((_, i) => i % 2 === 0).map((n) => n.toLowerCase());
  if (names(a.headers).join() !== names(b.headers).join())
    out.push(`header names: ${names(a.headers).join()} != ${names(b.headers).join()}`);
  for (let i = 0; i < Math.min(a.headers.length, b.headers.length); i += 2) {
    const name = a.headers[i]!.toLowerCase();
    const [va, vb] = [a.headers[i + 1]!, b.headers[i + 1]!];
    if (PER_REQUEST.has(name) ? va.length !== vb.length : va !== vb) out.push(`${name}: ${va} != ${vb}`);
  }
  return out;
}
