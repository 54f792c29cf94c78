// One request through a handler without a socket (as Fastify's inject and Hono's app.request): the API's handler or
// the panel's, a request in and its answer out, for tests and tools.
import type { Answer, RequestLike } from './transport/answer.ts';

export interface InjectRequest {
  method?: string;
  url: string;
  headers?: Record<string, string | undefined>;
  body?: Buffer | string;
  remoteAddress?: string;
}

/** The answer, its body as bytes (empty for none). */
export interface Injected {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

/** A request as a socket gives it: header names in lower case, one value each, and its body read. */
export type InjectedRequest = RequestLike & { headers: Record<string, string | undefined>; body: Buffer };

export interface Injectable {
  answer(req: InjectedRequest): Answer | Promise<Answer>;
  /** Work the transport awaits before a batch (PostgreSQL's freshness read). */
  beforeBatch?: (requests: number) => Promise<void>;
}

/** The request through `handler` as the transport runs it: its batch's preparation first, an answer made later awaited. */
export async function inject(handler: Injectable, req: InjectRequest): Promise<Injected> {
  if (handler.beforeBatch) await handler.beforeBatch(1);
  const headers = Object.entries(req.headers ?? {}).filter((e): e is [string, string] => e[1] !== undefined);
  const made = await handler.answer({
    method: req.method ?? 'GET',
    url: req.url,
    headers: Object.fromEntries(headers.map(([k, v]) => [k.toLowerCase(), v])),
    remoteAddress: req.remoteAddress ?? '127.0.0.1',
    body: Buffer.from(req.body ?? ''),
  });
  const answer = made.later ? await made.later : made;
  const body = answer.body === null ? Buffer.alloc(0) : Buffer.from(answer.body);
  return { status: answer.status, headers: { ...answer.headers }, body };
}
