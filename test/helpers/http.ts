// One call, the whole answer (status, headers, body text): over a socket to a URL (undici), or to a handler in process.
import { request } from 'undici';
import type { Handler } from '../../server/http/handler.ts';
import { inject } from './inject.ts';

/** The pages every server answers to GET without a key, apart from the API, the rental pages and the static files. */
export const SITE_PAGES = [
  '/',
  '/docs',
  '/docs/',
  '/docs/redoc.standalone.js',
  '/openapi.json',
  '/healthz',
  '/favicon.ico',
] as const;

export interface Reply {
  status: number;
  headers: Record<string, string>;
  text: string;
}

export interface CallOptions {
  method?: 'GET' | 'HEAD' | 'OPTIONS' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';
  key?: string;
  headers?: Record<string, string>;
}

/** Where a test sends its requests: a server's URL, or the handler itself (no socket: most behaviour tests). */
export type Target = string | Handler;

export async function call(target: Target, path: string, opts: CallOptions = {}): Promise<Reply> {
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.key !== undefined) headers['x-api-key'] = opts.key;
  if (typeof target !== 'string') {
    const r = await inject(target, { method: opts.method, url: path, headers });
    return { status: r.status, headers: r.headers, text: r.body.toString() };
  }
  const res = await request(target + path, { method: opts.method ?? 'GET', headers });
  const text = await res.body.text();
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(res.headers)) {
    if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return { status: res.statusCode, headers: flat, text };
}

/** The JSON body of a reply. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function json(reply: Reply): any {
  return JSON.parse(reply.text);
}
