// Load generators behind one interface: autocannon (programmatic, from npm) and wrk (when installed).
import { execFile, spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import autocannon from 'autocannon';

export interface Load {
  connections: number;
  pipelining: number;
  /** Seconds per round. */
  duration: number;
}

export interface BenchRequest {
  path: string;
  headers: Record<string, string>;
}

export interface Figures {
  rps: number;
  /** Milliseconds. */
  p50: number;
  p99: number;
  requests: number;
  /** Answers outside 2xx/3xx, and socket errors/timeouts: a bench scenario expects none unless it says so. */
  unexpected: number;
  /** 2xx answers, where the generator counts them (autocannon; wrk counts only answers outside 2xx/3xx). */
  ok2xx?: number;
}

export type Generator = (url: string, requests: BenchRequest[], load: Load) => Promise<Figures>;

function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** autocannon records latency in whole milliseconds; we keep every response time (a float) for exact percentiles. */
export const runAutocannon: Generator = async (url, requests, load) => {
  let times = new Float64Array(1 << 16);
  let n = 0;
  const instance = autocannon({
    url,
    connections: load.connections,
    pipelining: load.pipelining,
    duration: load.duration,
    requests: requests.map((r) => ({ method: 'GET', path: r.path, headers: r.headers })),
  });
  instance.on('response', (_client: unknown, _status: number, _bytes: number, ms: number) => {
    if (n === times.length) {
      const bigger = new Float64Array(times.length * 2);
      bigger.set(times);
      times = bigger;
    }
    times[n++] = ms;
  });
  const result = await instance;
  const sorted = times.subarray(0, n).sort();
  return {
    rps: result.requests.total / result.duration,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    requests: result.requests.total,
    unexpected: result['4xx'] + result['5xx'] + result.errors + result.timeouts,
    ok2xx: result['2xx'],
  };
};

export function wrkInstalled(): boolean {
  return spawnSync('wrk', ['--version']).error === undefined;
}

const luaString = (s: string) => JSON.stringify(s); // JSON string escapes are valid Lua escapes for this ASCII

/** One client thread (the other core is the server's); a Lua script rotates through the requests. */
export const runWrk: Generator = (url, requests, load) => {
  const script = join(tmpdir(), `bench-wrk-${process.pid}-${Math.random().toString(36).slice(2)}.lua`);
  const formatted = requests.map((r) => {
    const headers = Object.entries(r.headers)
      .map(([k, v]) => `[${luaString(k)}]=${luaString(v)}`)
      .join(', ');
    return `wrk.format("GET", ${luaString(r.path)}, {${headers}})`;
  });
  // Requests are formatted in init(): wrk only knows the Host header by then. With pipelining, each write carries
  // `depth` requests back to back (wrk's own pipeline.lua does the same).
  writeFileSync(
    script,
    `local reqs, n, i, depth = {}, 0, 0, ${load.pipelining}\n` +
      `init = function()\n  reqs = {${formatted.join(',\n')}}\n  n = #reqs\nend\n` +
      `request = function()\n  local out = {}\n  for k = 1, depth do i = i % n + 1; out[k] = reqs[i] end\n  return table.concat(out)\nend\n`,
  );
  return new Promise((resolve, reject) => {
    execFile(
      'wrk',
      ['-t1', `-c${load.connections}`, `-d${load.duration}s`, '--latency', '-s', script, url],
      (err, stdout) => {
        if (err) return reject(new Error(`wrk failed: ${err.message}`));
        const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(stdout)?.[1]);
        const total = Number(/(\d+) requests in/.exec(stdout)?.[1]);
        const errors = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(stdout);
        const non2xx = Number(/Non-2xx or 3xx responses: (\d+)/.exec(stdout)?.[1] ?? 0);
        const lat = (p: string) => {
          const m = new RegExp(`^\\s+${p}%\\s+([\\d.]+)(us|ms|s)\\s*$`, 'm').exec(stdout);
          if (!m) return NaN;
          return Number(m[1]) * (m[2] === 'us' ? 0.001 : m[2] === 's' ? 1000 : 1);
        };
        const socketErrors = errors ? errors.slice(1).reduce((a, b) => a + Number(b), 0) : 0;
        resolve({ rps, p50: lat('50'), p99: lat('99'), requests: total, unexpected: non2xx + socketErrors });
      },
    );
  });
};
