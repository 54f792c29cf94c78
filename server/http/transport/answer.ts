// What a handler returns: status, headers and body, without a socket. server.ts writes it out.
import { memoBy } from '../memo.ts';
import type { ProblemCode } from '../../../shared/listing.ts';

/** Header names in lower case; values are text, as node:http writes them. */
export type Headers = Record<string, string>;

export interface Answer {
  status: number;
  headers: Headers;
  body: Buffer | string | null;
  /** The real answer, when its body is made off the event loop; status, headers and body above are placeholders. */
  later?: Promise<Answer>;
}

/**
 * The answer, sent after `ms`: for a client that keeps sending while refused, which then waits on its connection
 * instead of keeping the event loop busy with refusals (as nginx's limit_req delay and HAProxy's tarpit do).
 */
export function heldBack(answer: Answer, ms: number): Answer {
  return { status: answer.status, headers: {}, body: null, later: new Promise((r) => setTimeout(r, ms, answer)) };
}

/** What the transport serves: an answer per request, a batch around many and a close at the end. */
export interface RequestHandler {
  answer(req: RequestLike): Answer;
  /** Answers a batch of requests read off their sockets before this call (one freshness check for all of them). */
  batch(fn: () => void): void;
  /** Flushes what the handler holds (last use) at shutdown. */
  close(): void;
  /** Work to await before a batch of `requests` (PostgreSQL's freshness read); absent for SQLite, whose batches start at once. */
  beforeBatch?: (requests: number) => Promise<void>;
  /** Logs the request line of an answer the transport made itself (a request refused before routing). */
  refused?: (answer: Answer, request: RefusedRequest) => void;
}

/** What the transport knows of a request it refused: its method and target when it got that far, when it began. */
export interface RefusedRequest {
  method: string | null;
  url: string | null;
  /** performance.now() when the transport took it up. */
  started: number;
}

export interface RequestLike {
  method: string;
  url: string;
  headers: Record<string, string | string[] | undefined>;
  remoteAddress: string;
}

export const PROBLEM_TYPE_BASE = 'https://storage-listings.dev/problems/';

const TITLES: Record<ProblemCode, string> = {
  missing_api_key: 'Missing API key',
  invalid_api_key: 'Invalid API key',
  revoked_api_key: 'Revoked API key',
  origin_not_allowed: 'Origin not allowed',
  not_found: 'Not found',
  method_not_allowed: 'Method not allowed',
  invalid_parameter: 'Invalid parameter',
  uri_too_long: 'URI too long',
  bad_request: 'Bad request',
  request_timeout: 'Request timeout',
  headers_too_large: 'Request header fields too large',
  rate_limited: 'Too many requests',
  internal_error: 'Internal error',
  database_unavailable: 'Database unavailable',
};

export const STATUS_OF: Record<ProblemCode, number> = {
  missing_api_key: 401,
  invalid_api_key: 401,
  revoked_api_key: 401,
  origin_not_allowed: 403,
  not_found: 404,
  method_not_allowed: 405,
  invalid_parameter: 400,
  uri_too_long: 414,
  bad_request: 400,
  request_timeout: 408,
  headers_too_large: 431,
  rate_limited: 429,
  internal_error: 500,
  database_unavailable: 503,
};

/**
 * The detail of each problem the API answers, worded once: the API sends these and the OpenAPI document shows them
 * as its examples. (invalid_parameter's detail comes from the query parser itself.)
 */
export const DETAILS = {
  missing_api_key: () => 'Send your API key in the X-API-Key header.',
  invalid_api_key: () => 'The X-API-Key header does not hold a valid API key.',
  revoked_api_key: () => 'This API key has been revoked; ask the operator for a new one.',
  origin_not_allowed: () => 'This API key may not be used from this website.',
  not_found: () => 'No listing with this id is available to this key.',
  method_not_allowed: (method: string) => `${method} is not allowed here; the API is read-only.`,
  rate_limited: (seconds: number) => `Too many requests for this key; retry in ${seconds} s.`,
  internal_error: (requestId: string) => `Something went wrong on our side. Request id: ${requestId}`,
  uri_too_long: (max: number) => `The URL is longer than ${max} characters.`,
  database_unavailable: (seconds: number) =>
    `This server cannot confirm its data is current (its database is unreachable); retry in ${seconds} s.`,
} as const satisfies Partial<Record<ProblemCode, (arg: never) => string>>;

/** Longer URLs get 414: no route is that long, and it bounds the work per request. */
export const MAX_URL_LENGTH = 2048;

/** The methods every route answers (`Allow`, CORS): the server is read-only. */
export const ALLOWED_METHODS = 'GET, HEAD, OPTIONS';

/** An RFC 9457 problem body. No request id in it, so equal problems are equal bytes. */
export function problemBody(code: ProblemCode, detail: string): string {
  return JSON.stringify({ type: PROBLEM_TYPE_BASE + code, title: TITLES[code], status: STATUS_OF[code], detail, code });
}

export function problem(code: ProblemCode, detail: string, headers: Readonly<Headers> = {}): Answer {
  return { status: STATUS_OF[code], headers: problemHeaders(headers), body: problemBody(code, detail) };
}

const problemHeaders = (headers: Readonly<Headers>): Headers => ({
  'content-type': 'application/problem+json',
  'cache-control': 'no-store',
  ...headers,
});

/** Problem bodies made recently, by code and detail: a client hammering a wrong key gets the same few over and over. */
export class ProblemBodies {
  /** A refused client sees a few details (its Retry-After, its query's fault): 256 covers them and bounds the rest. (Tests read it.) */
  readonly recent = memoBy<string, string, { code: ProblemCode; detail: string }>(256, (_id, { code, detail }) =>
    problemBody(code, detail),
  );

  /** problem(), its body made once while it is asked for. */
  answer(code: ProblemCode, detail: string, headers: Readonly<Headers> = {}): Answer {
    return { status: STATUS_OF[code], headers: problemHeaders(headers), body: this.body(code, detail) };
  }

  body(code: ProblemCode, detail: string): string {
    return this.recent.memo(`${code} ${detail}`, { context: { code, detail } });
  }
}

/** A header's value as node:http gives it, or the first of a repeated field that it keeps as a list. */
export function header(req: RequestLike, name: string): string | undefined {
  const v = req.headers[name];
  return typeof v === 'string' || v === undefined ? v : v[0];
}
