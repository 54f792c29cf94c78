// A rate-controlled client: sends at a fixed rate whatever the server does (open loop), and times each answer from
// the moment its request was due, so that a stalled server shows in the latencies instead of slowing the client.
import { Agent, request } from 'node:http';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { BenchRequest } from './load.ts';

export interface OpenLoopResult {
  sent: number;
  /** Milliseconds from each request's due time to the end of its answer. */
  latencies: number[];
  /** Each answer's due time (performance.now()), in the order of `latencies`. */
  due: number[];
  statuses: Record<string, number>;
  /** Requests that failed (socket errors) or had no answer within the limit. */
  failed: number;
  /** The failures by error code (ECONNRESET, timeout, ...), so that a broken run says what broke. */
  errors: Record<string, number>;
  seconds: number;
  /** The client's own event-loop delay during the run (p99 and max, ms): a stalled client inflates the latencies. */
  client_delay: { p99_ms: number; max_ms: number };
}

/** `rate` requests per second for `seconds`, rotating through `requests` from `start`; waits for the last answers. */
export async function openLoop(
  url: string,
  requests: readonly BenchRequest[],
  rate: number,
  seconds: number,
  agent: Agent,
  start = 0,
): Promise<OpenLoopResult> {
  const base = new URL(url);
  const result: OpenLoopResult = {
    sent: 0,
    latencies: [],
    due: [],
    statuses: {},
    failed: 0,
    errors: {},
    seconds,
    client_delay: { p99_ms: 0, max_ms: 0 },
  };
  const inFlight = new Set<Promise<void>>();
  const send = (r: BenchRequest, due: number) => {
    const done = new Promise<void>((resolve) => {
      const req = request(
        { host: base.hostname, port: base.port, path: r.path, headers: r.headers, agent, timeout: 30_000 },
        (res) => {
          res.resume();
          res.on('end', () => {
            result.latencies.push(performance.now() - due);
            result.due.push(due);
            result.statuses[res.statusCode!] = (result.statuses[res.statusCode!] ?? 0) + 1;
            resolve();
          });
        },
      );
      req.on('timeout', () => req.destroy(new Error('timeout')));
      req.on('error', (err: NodeJS.ErrnoException) => {
        result.failed++;
        const code = err.code ?? err.message;
        result.errors[code] = (result.errors[code] ?? 0) + 1;
        resolve();
      });
      req.end();
    });
    inFlight.add(done);
    void done.then(() => inFlight.delete(done));
  };
  const delay = monitorEventLoopDelay({ resolution: 1 });
  delay.enable();
  const began = performance.now();
  const total = Math.round(rate * seconds);
  await new Promise<void>((resolve) => {
    const tick = () => {
      const now = performance.now();
      while (result.sent < total && began + (result.sent * 1000) / rate <= now) {
        send(requests[(start + result.sent) % requests.length]!, began + (result.sent * 1000) / rate);
        result.sent++;
      }
      if (result.sent >= total) {
        clearInterval(timer);
        resolve();
      }
    };
    const timer = setInterval(tick, 1);
  });
  await Promise.all(inFlight);
  delay.disable();
  result.client_delay = { p99_ms: delay.percentile(99) / 1e6, max_ms: delay.max / 1e6 };
  return result;
}
