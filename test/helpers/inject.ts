// The handler in process, without a socket (as Fastify's inject and Hono's app.request): a request in, an answer out.
import { createHandler, type Handler, type HandlerOptions } from '../../server/http/handler.ts';
import { startPgNode } from '../../server/pg-node.ts';
import { createLogger } from '../../server/logger.ts';
import { openDb } from '../../server/store/db.ts';
import { isPostgresUrl } from '../../server/store/pg/location.ts';

export interface Injected {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

export interface InjectRequest {
  method?: string;
  url: string;
  headers?: Record<string, string>;
  remoteAddress?: string;
}

/** The public URL of handlerOver's handlers: rent links and the OpenAPI document's server carry it. */
export const PUBLIC_URL = 'http://127.0.0.1:8787';

/** What the handlers made here have unless a test says otherwise: no rate limits. */
const DEFAULTS = {
  publicUrl: PUBLIC_URL,
  keyPrefix: 'svc',
  defaultLimit: { rate: 1e9, burst: 1e9 },
  authFailureLimit: { rate: 1e9, burst: 1e9 },
};

/** A handler over the database file, with this process's own connection (as `listings serve` has). */
export function handlerOver(file: string, extra: Partial<HandlerOptions> = {}): Handler {
  const db = openDb(file, { migrate: false });
  const handler = createHandler({ ...DEFAULTS, db, ...extra });
  const closeHandler = handler.close;
  // Closing it also closes its connection, which this helper opened.
  return Object.assign(handler, {
    close: () => {
      closeHandler();
      db.close();
    },
  });
}

/** A handler at a --db location: over a file, or a node on PostgreSQL (inject() runs its freshness read before each request). */
export async function handlerAt(
  location: string,
  extra: Partial<HandlerOptions> = {},
): Promise<Handler & { stop(): Promise<void> }> {
  if (!isPostgresUrl(location)) {
    const handler = handlerOver(location, extra);
    return Object.assign(handler, { stop: async () => handler.close() });
  }
  const node = await startPgNode(location);
  const handler = createHandler({
    ...DEFAULTS,
    db: node.db,
    recordLastUse: node.recordLastUse,
    recordClicks: node.recordClicks,
    ...extra,
  });
  node.attach(handler, extra.logger ?? createLogger({ write: () => {} }).logger);
  // Last use still pending is written, the node's connections closed.
  return Object.assign(handler, {
    stop: async () => {
      handler.close();
      await node.close();
    },
  });
}

/**
 * One request through the handler, as the transport makes it: the freshness read first (a node on PostgreSQL), then the
 * answer, awaited when it is made later (a body compressed off the event loop, a refusal held back).
 */
export async function inject(handler: Handler, req: InjectRequest): Promise<Injected> {
  // Without a freshness read the handler answers in this very call, so a test's handler.batch() holds its requests.
  if (handler.prepare) await handler.prepare(1);
  const made = handler({
    method: req.method ?? 'GET',
    url: req.url,
    headers: Object.fromEntries(Object.entries(req.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v])),
    remoteAddress: req.remoteAddress ?? '127.0.0.1',
  });
  const answer = made.later ? await made.later : made;
  const body = answer.body === null ? Buffer.alloc(0) : Buffer.from(answer.body);
  return { status: answer.status, headers: { ...answer.headers }, body };
}

/** A fetch() of paths that goes through the handler: a WHATWG Response, for tests written against fetch. */
export function fetchVia(handler: Handler) {
  return async (path: string, init: { method?: string; headers?: Record<string, string> } = {}): Promise<Response> => {
    const r = await inject(handler, { method: init.method, url: path, headers: init.headers });
    const empty = r.status === 204 || r.status === 304 || init.method === 'HEAD';
    return new Response(empty ? null : new Uint8Array(r.body), { status: r.status, headers: r.headers });
  };
}
