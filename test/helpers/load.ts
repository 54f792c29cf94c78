// A load of concurrent keep-alive requests that records every outcome (status, or the error, with start and end times).
import { Pool } from 'undici';

export interface Target {
  path: string;
  key?: string;
  /** A label to find this target's outcomes by (e.g. "victim"). */
  tag?: string;
}

export interface Outcome {
  tag: string | undefined;
  path: string;
  status?: number;
  error?: string;
  requestId?: string;
  /** The problem code of an error answer. */
  code?: string;
  bytes: number;
  started: number;
  ended: number;
}

export interface Load {
  outcomes: Outcome[];
  /** Stops issuing requests and resolves once every one in flight has finished. */
  stop(): Promise<Outcome[]>;
}

/** `concurrency` loops, each sending one request after another to a target picked in turn from `targets`. */
export function startLoad(base: string, targets: () => Target[], concurrency = 16): Load {
  const pool = new Pool(base, { connections: concurrency, pipelining: 1 });
  const outcomes: Outcome[] = [];
  let running = true;
  let turn = 0;
  const loop = async () => {
    while (running) {
      const list = targets();
      const t = list[turn++ % list.length]!;
      const started = performance.now();
      try {
        const res = await pool.request({ path: t.path, method: 'GET', headers: t.key ? { 'x-api-key': t.key } : {} });
        const body = Buffer.from(await res.body.arrayBuffer());
        const rid = res.headers['x-request-id'];
        const code =
          res.headers['content-type'] === 'application/problem+json'
            ? (JSON.parse(body.toString()) as { code: string }).code
            : undefined;
        outcomes.push({
          tag: t.tag,
          path: t.path,
          status: res.statusCode,
          requestId: typeof rid === 'string' ? rid : undefined,
          code,
          bytes: body.length,
          started,
          ended: performance.now(),
        });
      } catch (err) {
        outcomes.push({
          tag: t.tag,
          path: t.path,
          error: (err as { code?: string }).code ?? (err as Error).message,
          bytes: 0,
          started,
          ended: performance.now(),
        });
        // A refused connection (server gone) would otherwise spin.
        await new Promise((r) => setTimeout(r, 10));
      }
    }
  };
  const loops = Array.from({ length: concurrency }, loop);
  return {
    outcomes,
    stop: async () => {
      running = false;
      await Promise.all(loops);
      await pool.close();
      return outcomes;
    },
  };
}

/** How many outcomes per status (or error code): for messages when an assertion fails. */
export function tally(outcomes: readonly Outcome[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const o of outcomes) {
    const k = o.status === undefined ? `error ${o.error}` : String(o.status);
    out[k] = (out[k] ?? 0) + 1;
  }
  return out;
}
