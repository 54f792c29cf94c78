// The handler in process, without a socket (as Fastify's inject and Hono's app.request): a request in, an answer out.
import { Freshness } from '../../server/freshness/freshness.ts';
import { createHandler, type Handler, type HandlerOptions } from '../../server/http/handler.ts';
import { inject } from '../../server/http/inject.ts';
import { startPgNode } from '../../server/pg-node.ts';
import { createLogger } from '../../server/logger.ts';
import { openDb } from '../../server/store/db.ts';
import { isPostgresUrl } from '../../server/store/pg/location.ts';

export { inject, type Injected, type InjectRequest } from '../../server/http/inject.ts';

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
  const freshness = new Freshness(node.db);
  const handler = createHandler({
    ...DEFAULTS,
    db: node.db,
    recordLastUse: node.recordLastUse,
    recordClicks: node.recordClicks,
    freshness,
    beforeBatch: node.beforeBatch(freshness, extra.logger ?? createLogger({ write: () => {} }).logger),
    ...extra,
  });
  // Last use still pending is written, the node's connections closed.
  return Object.assign(handler, {
    stop: async () => {
      handler.close();
      await node.close();
    },
  });
}

/** A fetch() of paths that goes through the handler: a WHATWG Response, for tests written against fetch. */
export function fetchVia(handler: Handler) {
  return async (path: string, init: { method?: string; headers?: Record<string, string> } = {}): Promise<Response> => {
    const r = await inject(handler, { method: init.method, url: path, headers: init.headers });
    const empty = r.status === 204 || r.status === 304 || init.method === 'HEAD';
    return new Response(empty ? null : new Uint8Array(r.body), { status: r.status, headers: r.headers });
  };
}
