// The load generator: wrk, one C thread on the load core, rotating through a list of requests from a Lua script.
import { execFile, spawnSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';

export interface Load {
  connections: number;
  /** Seconds per round. */
  duration: number;
  /** Where in the requests the rotation starts: rounds over a long rotation start at different places. */
  start?: number;
}

export interface BenchRequest {
  path: string;
  headers: Record<string, string>;
}

/** Latencies in ms; errorAnswers: answers outside 2xx/3xx; socketErrors: connect, read and write errors, timeouts. */
export type Figures = Record<'rps' | 'p50' | 'p99' | 'requests' | 'errorAnswers' | 'socketErrors', number>;

export const wrkInstalled = () => spawnSync('wrk', ['--version']).error === undefined;

// A long rotation is megabytes of Lua: each list's script is written once.
const scripts = new WeakMap<readonly BenchRequest[], string>();
const written: string[] = [];
process.once('exit', () => written.forEach((file) => rmSync(file, { force: true })));

function scriptOf(requests: readonly BenchRequest[]): string {
  const known = scripts.get(requests);
  if (known !== undefined) return known;
  const file = join(tmpdir(), `bench-wrk-${process.pid}-${written.length}.lua`);
  // JSON string escapes are valid Lua escapes for these ASCII requests.
  const formatted = requests.map((r) => {
    const headers = Object.entries(r.headers).map(([k, v]) => `[${JSON.stringify(k)}]=${JSON.stringify(v)}`);
    return `wrk.format("GET", ${JSON.stringify(r.path)}, {${headers.join(', ')}})`;
  });
  // Formatted in init(): wrk knows the Host header only by then. The script's argument is where to start.
  writeFileSync(
    file,
    `local reqs, n, i = {}, 0, 0\n` +
      `init = function(args)\n  reqs = {${formatted.join(',\n')}}\n  n = #reqs\n  i = (tonumber(args[1]) or 0) % n\nend\n` +
      `request = function()\n  i = i % n + 1\n  return reqs[i]\nend\n`,
  );
  scripts.set(requests, file);
  written.push(file);
  return file;
}

export function runWrk(url: string, requests: readonly BenchRequest[], load: Load): Promise<Figures> {
  const args = ['-t1', `-c${load.connections}`, `-d${load.duration}s`, '--latency', '-s', scriptOf(requests), url];
  return new Promise((resolve, reject) => {
    execFile('wrk', [...args, '--', String(load.start ?? 0)], (err, stdout) => {
      if (err) return reject(new Error(`wrk failed: ${err.message}`));
      const errors = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(stdout);
      const latency = (p: string) => {
        const m = new RegExp(`^\\s+${p}%\\s+([\\d.]+)(us|ms|s)\\s*$`, 'm').exec(stdout);
        return m ? Number(m[1]) * (m[2] === 'us' ? 0.001 : m[2] === 's' ? 1000 : 1) : NaN;
      };
      resolve({
        rps: Number(/Requests\/sec:\s+([\d.]+)/.exec(stdout)?.[1]),
        p50: latency('50'),
        p99: latency('99'),
        requests: Number(/(\d+) requests in/.exec(stdout)?.[1]),
        errorAnswers: Number(/Non-2xx or 3xx responses: (\d+)/.exec(stdout)?.[1] ?? 0),
        socketErrors: errors ? errors.slice(1).reduce((a, b) => a + Number(b), 0) : 0,
      });
    });
  });
}
