// The whole header list of an API answer, made once per body and key profile and copied per request.
import type { Variant } from './views-cache.ts';

/** What a list depends on besides the body: the key profile's RateLimit-Policy and its CORS lists (see api.ts). */
export interface ListProfile {
  readonly policy: string;
  /** The open CORS lists, undefined for an origin-restricted key (whose lists are made per request, so not kept). */
  readonly cors: readonly string[] | undefined;
  readonly corsCoded: readonly string[] | undefined;
}

/** Where headerListFor's lists hold the two values that change per request, counted from the end. */
const RATELIMIT_FROM_END = 5;
const REQUEST_ID_FROM_END = 3;

/**
 * An answer's whole header list: CORS, the body's, the rate limit's, the request id and nosniff. A copy of a list made
 * once per body, CORS list and profile, with the RateLimit value and the request id written in: a copy and two writes
 * cost less than joining the parts with spreads per request. An origin-restricted key's CORS list is made per request,
 * so its list is joined per request and not kept.
 */
export function headerListFor(
  variant: Variant,
  notModified: boolean,
  cors: readonly string[],
  profile: ListProfile,
  rateLimit: string,
  requestId: string,
): string[] {
  const kept = notModified ? variant.notModifiedList : variant.okList;
  let headers: string[];
  if (kept !== undefined && kept.cors === cors && kept.profile === profile) headers = kept.list.slice();
  else {
    const made = [
      ...cors,
      ...(notModified ? variant.notModified : variant.ok),
      'ratelimit-policy',
      profile.policy,
      'ratelimit',
      '',
      'x-request-id',
      '',
      'x-content-type-options',
      'nosniff',
    ];
    if (cors === profile.cors || cors === profile.corsCoded) {
      const list = { cors, profile, list: made };
      if (notModified) variant.notModifiedList = list;
      else variant.okList = list;
      headers = made.slice();
    } else headers = made; // made for this request alone: no copy
  }
  headers[headers.length - RATELIMIT_FROM_END] = rateLimit;
  headers[headers.length - REQUEST_ID_FROM_END] = requestId;
  return headers;
}
