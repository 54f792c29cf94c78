// The two servers under test as child processes: ours (`listings serve`) and the ceiling (bench/ceiling.ts).
import { fork, spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { get } from 'node:http';
import { freePort } from '../../demo/launch.ts';
import type { CapturedAnswer } from '../ceiling.ts';

export const REPO = fileURLToPath(new URL('../..', import.meta.url));

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
 * `node bin/listings.js serve --port P --db FILE --quiet`; with log=true the request log goes to /dev/null instead of
 * --quiet. With openAuth=true, the same app with the failed-auth limit lifted (serve-open-auth.ts).
 */
export async function startOurs(name: string, dbFile: string, opts: { log?: boolean; openAuth?: boolean } = {}): Promise<ServerProcess> {
  // A real port rather than 0: the public URL (and so the rent links in the bodies) carries it.
  const port = String(await freePort());
  const args = opts.openAuth
    ? ['--import', 'tsx', join(REPO, 'bench', 'lib', 'serve-open-auth.ts'), dbFile, port]
    : [join(REPO, 'bin', 'listings.js'), 'serve', '--port', port, '--db', dbFile];
  if (!opts.log && !opts.openAuth) args.push('--quiet');
  const child = spawn(process.execPath, args, { cwd: REPO, stdio: ['ignore', 'ignore', 'pipe'] });
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
  /** Makes the ceiling answer exactly this from now on. */
  answer(a: CapturedAnswer): Promise<void>;
}

export function startCeiling(): Promise<Ceiling> {
  const child = fork(join(REPO, 'bench', 'ceiling.ts'), ['0'], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  return new Promise((resolve, reject) => {
    child.once('message', (m: { port: number }) => {
      resolve({
        name: 'ceiling',
        url: `http://127.0.0.1:${m.port}`,
        pid: child.pid!,
        child,
        stop: stopper(child),
        answer: (a) =>
          new Promise((done) => {
            child.once('message', () => done());
            child.send(a);
          }),
      });
    });
    child.once('exit', (code) => reject(new Error(`ceiling exited with ${code}`)));
  });
}

/** Headers Node's http server adds by itself, on both servers alike. */
const ADDED_BY_NODE = new Set(['date', 'connection', 'keep-alive']);

/** One answer of a server, as the ceiling must replay it. */
export function capture(url: string, headers: Record<string, string>): Promise<CapturedAnswer> {
  return new Promise((resolve, reject) => {
    get(url, { headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const raw = res.rawHeaders;
        const flat: string[] = [];
        for (let i = 0; i < raw.length; i += 2) if (!ADDED_BY_NODE.has(raw[i]!.toLowerCase())) flat.push(raw[i]!, raw[i + 1]!);
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
  if (names(a.headers).join() !== names(b.headers).join()) out.push(`header names: ${names(a.headers).join()} != ${names(b.headers).join()}`);
  for (let i = 0; i < Math.min(a.headers.length, b.headers.length); i += 2) {
    const name = a.headers[i]!.toLowerCase();
    const [va, vb] = [a.headers[i + 1]!, b.headers[i + 1]!];
    if (PER_REQUEST.has(name) ? va.length !== vb.length : va !== vb) out.push(`${name}: ${va} != ${vb}`);
  }
  return out;
}
