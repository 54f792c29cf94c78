// CORS headers: the same on every answer, so a browser can read errors too.
import { headerListOf, type Headers } from './answer.ts';

export const CORS_HEADERS: Readonly<Headers> = Object.freeze({
  'access-control-allow-origin': '*',
  'access-control-allow-headers': 'X-API-Key',
  'access-control-allow-methods': 'GET, HEAD, OPTIONS',
  'access-control-max-age': 7200,
  'access-control-expose-headers': 'ETag, Retry-After, RateLimit, RateLimit-Policy, X-Request-Id',
  vary: 'X-API-Key, Origin',
});

/** Readonly in type only: spread per request, and V8 spreads frozen arrays on a slower path. */
export const CORS_HEADER_LIST: readonly string[] = headerListOf(CORS_HEADERS);

/** The CORS headers with this Access-Control-Allow-Origin (an origin-restricted key's). */
export function corsHeaderListFor(allowOrigin: string): readonly string[] {
  return headerListOf({ ...CORS_HEADERS, 'access-control-allow-origin': allowOrigin });
}

/** For an origin-restricted key: echo the request's origin only when it is allowed. */
export function allowedOriginFor(origins: readonly string[], requestOrigin: string | undefined): string {
  if (origins.length === 0) return '*';
  if (requestOrigin !== undefined && origins.includes(requestOrigin)) return requestOrigin;
  return origins[0]!;
}
