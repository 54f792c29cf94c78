// The panel's requests and answers as plain values: the handler is a function from one to the other, testable without a socket.
import { parseCookie, type Cookies } from 'cookie';
import type { Html } from '../http/pages/html.ts';
import type { Answer, RequestLike } from '../http/transport/answer.ts';

/** The API's request with its body: headers as one value each (the panel reads no repeated field). */
export interface PanelRequest extends RequestLike {
  headers: Record<string, string | undefined>;
  body: Buffer;
  /** The import route's upload, read through its parser instead of into `body` (over a socket; in process: absent). */
  upload?: Upload;
  /** Its X-Request-Id, made where it was read off its socket (in process: made by the handler). */
  requestId?: string;
}

/** An upload form's fields, and its one file in a temporary file of its own. */
export interface Upload {
  fields: ReadonlyMap<string, string>;
  /** The file part: its form field's name, the name the browser gave it, and where its bytes are. */
  file?: { field: string; filename: string; path: string };
  /** Removes the temporary file; whoever received the upload calls it once the answer is made. */
  remove(): Promise<void>;
}

/** No inline script or style, no framing, forms post only to the panel itself. */
export const PANEL_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' https: data:; connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

const SECURITY_HEADERS = {
  'content-security-policy': PANEL_CSP,
  'referrer-policy': 'same-origin',
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  // Pages show keys and operator data: never kept by a browser or proxy cache.
  'cache-control': 'no-store',
};

export function htmlAnswer(body: string | Html, status = 200, headers: Record<string, string> = {}): Answer {
  return {
    status,
    headers: { ...SECURITY_HEADERS, 'content-type': 'text/html; charset=utf-8', ...headers },
    body: String(body),
  };
}

export function jsonAnswer(value: unknown, status = 200): Answer {
  return {
    status,
    headers: { ...SECURITY_HEADERS, 'content-type': 'application/json; charset=utf-8' },
    body: JSON.stringify(value),
  };
}

export function redirect(location: string, headers: Record<string, string> = {}): Answer {
  return { status: 303, headers: { ...SECURITY_HEADERS, location, ...headers }, body: '' };
}

/**
 * Set-Cookie for several cookies. An answer holds one text per header, so this one holds a cookie a line (no cookie
 * can hold a line break), and the panel's listener writes each line as a Set-Cookie header of its own.
 */
export const setCookies = (...cookies: string[]): Record<string, string> => ({ 'set-cookie': cookies.join('\n') });

/** What a request is before its body is read: what decides whether to read it. */
export type PanelRequestHead = Omit<PanelRequest, 'body' | 'upload'>;

export function plain(status: number, text: string, headers: Record<string, string> = {}): Answer {
  return {
    status,
    headers: { ...SECURITY_HEADERS, 'content-type': 'text/plain; charset=utf-8', ...headers },
    body: text,
  };
}

/** application/x-www-form-urlencoded fields. */
export function formOf(req: PanelRequest): URLSearchParams {
  return new URLSearchParams(req.body.toString('utf8'));
}

/** A Cookie header longer than this is not read: the panel's own cookies take under 200 bytes of it. */
export const COOKIE_HEADER_BYTES = 8 * 1024;

/** The request's cookies by name (the first of a repeated name); none past the header's cap. */
export function cookiesOf(req: Pick<PanelRequest, 'headers'>): Cookies {
  const header = req.headers.cookie;
  return header === undefined || header.length > COOKIE_HEADER_BYTES ? {} : parseCookie(header);
}
