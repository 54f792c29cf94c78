// A reverse proxy in front of an S3 endpoint that fails or delays a share of requests, as a struggling store does.
import { Agent, createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { finished } from 'node:stream/promises';
import { sendS3Error } from './s3-server.ts';

export interface FaultPlan {
  /** Share of eligible requests answered with an error (0..1). */
  failRate?: number;
  /** Error statuses to pick from (default 500 and 503). */
  statuses?: number[];
  /** 'before' (default): the store never sees the request. 'after': the store applies it, the client still gets the error. */
  when?: 'before' | 'after';
  /** Share of eligible requests delayed by slowMs (default 100) before they are forwarded. */
  slowRate?: number;
  slowMs?: number;
  /** Share of eligible requests never answered: the body is read, then nothing comes back until the client gives up. */
  stallRate?: number;
  /** Share of eligible requests whose answer stops after its headers and a first few bytes, until the client gives up. */
  stallBodyRate?: number;
  /** Seed of the pseudo-random choices (default 1), so a run in one order of requests is repeatable. */
  seed?: number;
  /** Which requests may get a fault (default all). Called for every request, so it can also record them. */
  match?: (method: string, path: string) => boolean;
}

export interface FaultProxy {
  endpoint: string;
  /** Counts since the last setPlan(): every request, those answered with an injected error, delayed, never answered. */
  stats: { total: number; failed: number; slowed: number; stalled: number; stalledBodies: number };
  /** Replaces the plan, restarts the random sequence from its seed and zeroes the stats. */
  setPlan(plan: FaultPlan): void;
  stop(): Promise<void>;
}

/** What S3 itself answers with these statuses: the SDK retries both, SlowDown with its longer throttling backoff. */
const CODES: Record<number, string> = { 500: 'InternalError', 503: 'SlowDown' };

/** mulberry32: a tiny seeded PRNG. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export async function startFaultProxy(upstream: string, initial: FaultPlan = {}): Promise<FaultProxy> {
  const target = new URL(upstream);
  const agent = new Agent({ keepAlive: true });
  const stats = { total: 0, failed: 0, slowed: 0, stalled: 0, stalledBodies: 0 };
  let plan = initial;
  let next = seeded(plan.seed ?? 1);
  let stopped = false;

  const fail = (res: ServerResponse, status: number) => {
    stats.failed++;
    sendS3Error(res, status, CODES[status] ?? 'InternalError', 'injected');
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    stats.total++;
    const {
      failRate = 0,
      slowRate = 0,
      slowMs = 100,
      stallRate = 0,
      stallBodyRate = 0,
      when = 'before',
      statuses = [500, 503],
      match,
    } = plan;
    const eligible = match ? match(req.method ?? 'GET', req.url ?? '/') : true;
    if (eligible && stallRate > 0 && next() < stallRate) {
      stats.stalled++;
      req.resume(); // stop() closes the connection
      return;
    }
    const stallBody = eligible && stallBodyRate > 0 && next() < stallBodyRate;
    const status =
      eligible && failRate > 0 && next() < failRate ? statuses[Math.floor(next() * statuses.length)] : undefined;
    if (eligible && slowRate > 0 && next() < slowRate) {
      stats.slowed++;
      await new Promise((resolve) => setTimeout(resolve, slowMs));
      if (stopped || res.destroyed) return;
    }
    if (status !== undefined && when === 'before') {
      // Take the whole body first: an answer mid-upload can reach the client as a reset instead of the 5xx.
      req.resume();
      await finished(req).catch(() => undefined);
      return fail(res, status);
    }
    // Raw headers as they came, Host included: the SDK signed Host, and the store checks the signature against it.
    const out = request({
      host: target.hostname,
      port: target.port,
      method: req.method,
      path: req.url,
      headers: req.rawHeaders,
      agent,
    });
    out.on('response', (answer) => {
      if (status !== undefined) {
        answer.resume();
        answer.once('end', () => fail(res, status));
        return;
      }
      res.writeHead(answer.statusCode ?? 502, answer.statusMessage, answer.rawHeaders);
      if (stallBody) {
        stats.stalledBodies++;
        answer.once('data', (chunk: Buffer) => res.write(chunk.subarray(0, 1))); // stop() closes the connection
        return;
      }
      answer.pipe(res);
      answer.once('error', () => res.destroy());
    });
    out.on('error', () =>
      res.headersSent ? res.destroy() : sendS3Error(res, 502, 'BadGateway', 'upstream unreachable'),
    );
    // The client gave up (or stop() closed it): do not leave the upstream request hanging.
    res.once('close', () => {
      if (!res.writableFinished) out.destroy();
    });
    req.pipe(out);
  };

  const server = createServer((req, res) => void handle(req, res));
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    stats,
    setPlan(p) {
      plan = p;
      next = seeded(p.seed ?? 1);
      Object.assign(stats, { total: 0, failed: 0, slowed: 0, stalled: 0, stalledBodies: 0 });
    },
    async stop() {
      stopped = true;
      const closed = new Promise((resolve) => server.close(resolve));
      server.closeAllConnections();
      agent.destroy();
      await closed;
    },
  };
}
