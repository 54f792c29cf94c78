// A small undici client for the tests: one call, the whole answer (status, headers, body text).
import { request } from 'undici';

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

export async function call(base: string, path: string, opts: CallOptions = {}): Promise<Reply> {
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.key !== undefined) headers['x-api-key'] = opts.key;
  const res = await request(base + path, { method: opts.method ?? 'GET', headers });
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
