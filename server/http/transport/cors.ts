// CORS headers: the same on every answer, so a browser can read errors too.
import { ALLOWED_METHODS, type Headers } from './answer.ts';
import { VARY_WITH_CODING } from './encoding.ts';

export const CORS_HEADERS: Readonly<Headers> = Object.freeze({
  'access-control-allow-origin': '*',
  // X-API-Key first, as the contract names it; If-None-Match so that a page can send back the ETag it was given.
  'access-control-allow-headers': 'X-API-Key, If-None-Match',
  'access-control-allow-methods': ALLOWED_METHODS,
  'access-control-max-age': '7200',
  'access-control-expose-headers': 'ETag, Retry-After, RateLimit, RateLimit-Policy, X-Request-Id, X-Partner-Ref',
  vary: 'X-API-Key, Origin',
});

/**
 * The CORS headers with this Access-Control-Allow-Origin. `varyOnCoding` for a request that sent Accept-Encoding: its
 * answer was chosen by coding too. A request without one always gets identity, and every answer is `private`, so only
 * that client's own cache keeps it: it never needs the coding in Vary.
 */
export function corsHeadersFor(allowOrigin: string, varyOnCoding: boolean): Readonly<Headers> {
  return Object.freeze({
    ...CORS_HEADERS,
    'access-control-allow-origin': allowOrigin,
    ...(varyOnCoding ? { vary: VARY_WITH_CODING } : {}),
  });
}

/** For an origin-restricted key: echo the request's origin only when it is allowed. */
export function allowedOriginFor(origins: readonly string[], requestOrigin: string | undefined): string {
  if (origins.length === 0) return '*';
  if (requestOrigin !== undefined && origins.includes(requestOrigin)) return requestOrigin;
  return origins[0]!;
}
