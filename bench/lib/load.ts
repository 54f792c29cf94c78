// Load generators behind one interface: autocannon (programmatic, from npm) and wrk (when installed).
import { execFile, spawnSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import autocannon from 'autocannon';

export interface Load {
  connections: number;
  pipelining: number;
  /** Seconds per round. */
  duration: number;
  /** Where in the requests the rotation starts (default 0): rounds over a long rotation start at different places. */
  start?: number;
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
  /** The two parts of `unexpected`: answers outside 2xx/3xx, and socket errors and timeouts. */
  errorAnswers: number;
  socketErrors: number;
  /** 2xx answers, where the generator counts them (autocannon; wrk counts only answers outside 2xx/3xx). */
  ok2xx?: number;
}

export type Generator = (url: string, requests: readonly BenchRequest[], load: Load) => Promise<Figures>;

function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/**
 * autocannon records latency in whole milliseconds; we keep every response time (a float) for exact percentiles. Each of
 * its connections walks a request list of its own, built into buffers up front: a long rotation is cut into one slice
 * per connection (with pipelining 1), so that each request is built once and the connections together cover it.
 */
export const runAutocannon: Generator = async (url, requests, load) => {
  let times = new Float64Array(1 << 16);
  let n = 0;
  const all = rotated(requests, load.start).map((r) => ({ method: 'GET', path: r.path, headers: r.headers }));
  const sliced = load.pipelining === 1 && all.length > load.connections;
  const per = Math.ceil(all.length / load.connections);
  let clients = 0;
  const instance = autocannon({
    url,
    connections: load.connections,
    pipelining: load.pipelining,
    duration: load.duration,
    requests: sliced ? all.slice(0, 1) : all,
    ...(sliced && {
      setupClient: (client: { setRequests(r: typeof all): void }) => {
        const from = (clients++ % load.connections) * per;
        client.setRequests(all.slice(from, from + per));
      },
    }),
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
    errorAnswers: result['4xx'] + result['5xx'],
    socketErrors: result.errors + result.timeouts,
    ok2xx: result['2xx'],
  };
};

/** The requests from `start` on, then those before it. */
function rotated(requests: readonly BenchRequest[], start = 0): readonly BenchRequest[] {
  const at = start % requests.length;
  return at === 0 ? requests : [...requests.slice(at), ...requests.slice(0, at)];
}

export function wrkInstalled(): boolean {
  return spawnSync('wrk', ['--version']).error === undefined;
}

const luaString = (s: string) => JSON.stringify(s); // JSON string escapes are valid Lua escapes for this ASCII

/** The Lua script of a request list and depth, written once: a long rotation is megabytes of Lua. */
const scripts = new WeakMap<readonly BenchRequest[], Map<number, string>>();
const written: string[] = [];
process.once('exit', () => {
  for (const file of written) rmSync(file, { force: true });
});

function wrkScript(requests: readonly BenchRequest[], pipelining: number): string {
  const known = scripts.get(requests) ?? new Map<number, string>();
  scripts.set(requests, known);
  const cached = known.get(pipelining);
  if (cached !== undefined) return cached;
  const script = join(tmpdir(), `bench-wrk-${process.pid}-${Math.random().toString(36).slice(2)}.lua`);
  const formatted = requests.map((r) => {
    const headers = Object.entries(r.headers)
      .map(([k, v]) => `[${luaString(k)}]=${luaString(v)}`)
      .join(', ');
    return `wrk.format("GET", ${luaString(r.path)}, {${headers}})`;
  });
  // Requests are formatted in init(): wrk only knows the Host header by then. With pipelining, each write carries
  // `depth` requests back to back (wrk's own pipeline.lua does the same). The first argument is where to start.
  writeFileSync(
    script,
    `local reqs, n, i, depth = {}, 0, 0, ${pipelining}\n` +
      `init = function(args)\n  reqs = {${formatted.join(',\n')}}\n  n = #reqs\n  i = (tonumber(args[1]) or 0) % n\nend\n` +
      `request = function()\n  local out = {}\n  for k = 1, depth do i = i % n + 1; out[k] = reqs[i] end\n  return table.concat(out)\nend\n`,
  );
  known.set(pipelining, script);
  written.push(script);
  return script;
}

/** One client thread (the other core is the server's); a Lua script rotates through the requests. */
export const runWrk: Generator = (url, requests, load) => {
  const script = wrkScript(requests, load.pipelining);
  return new Promise((resolve, reject) => {
    execFile(
      'wrk',
      [
        '-t1',
        `-c${load.connections}`,
        `-d${load.duration}s`,
        '--latency',
        '-s',
        script,
        url,
        '--',
        String(load.start ?? 0),
      ],
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
        resolve({
          rps,
          p50: lat('50'),
          p99: lat('99'),
          requests: total,
          unexpected: non2xx + socketErrors,
          errorAnswers: non2xx,
          socketErrors,
        });
      },
    );
  });
};
