// The External Listings API: GET /external/listings and GET /external/listings/{id}, keyed by X-API-Key alone.
import type { Db } from '../store/db.ts';
import { header, HttpProblem, problem, type Answer, type Headers, type RequestLike } from './answer.ts';
import { KeyVerifier, type KeyInfo } from './auth.ts';
import { allowedOriginFor, CORS_HEADER_LIST, CORS_HEADERS, corsHeaderListFor } from './cors.ts';
import { Freshness } from './freshness.ts';
import { LastUse } from './last-use.ts';
import { parseListQuery, type ListQuery } from './query.ts';
import { RateLimiter, type Decision, type Limit } from './rate-limit.ts';
import { ViewsCache, type ApiBody } from './views-cache.ts';

export const API_PREFIX = '/external/listings';
const ALLOW = 'GET, HEAD, OPTIONS';
const KEY_MESSAGES = {
  missing_api_key: 'Send your API key in the X-API-Key header.',
  invalid_api_key: 'The X-API-Key header does not hold a valid API key.',
  revoked_api_key: 'This API key has been revoked; ask the operator for a new one.',
} as const;
const NOT_FOUND = 'No listing with this id is available to this key.';

export interface ApiOptions {
  db: Db;
  publicUrl: string;
  keyPrefix: string;
  defaultLimit: Limit;
  authFailureLimit: Limit;
  lastUseIntervalMs?: number;
  cacheBudgetBytes?: number;
}

/** What every answer to one key shares, worked out on its first request (and again after a data change). */
interface KeyProfile {
  limit: Limit;
  policy: string;
  /** The CORS headers; undefined for an origin-restricted key, whose Allow-Origin depends on the request. */
  cors: readonly string[] | undefined;
}

/** What the request log learns about a request from the API. */
export interface ApiContext {
  keyId?: string;
}

export class ListingsApi {
  readonly freshness: Freshness;
  readonly lastUse: LastUse;
  private readonly keys: KeyVerifier;
  private readonly views: ViewsCache;
  private readonly keyLimiter = new RateLimiter('key');
  private readonly authLimiter = new RateLimiter('auth');
  /** Keyed by the verifier's cached KeyInfo objects, so a data change (which drops those) drops these too. */
  private readonly profiles = new WeakMap<KeyInfo, KeyProfile>();

  constructor(private readonly opts: ApiOptions) {
    this.freshness = new Freshness(opts.db);
    this.keys = new KeyVerifier(opts.db, opts.keyPrefix);
    this.views = new ViewsCache(opts.db, opts.publicUrl, opts.cacheBudgetBytes);
    this.lastUse = new LastUse(opts.db, opts.lastUseIntervalMs);
    this.freshness.onChange(() => {
      this.keys.clear();
      this.views.clear();
    });
  }

  handles(path: string): boolean {
    return path === API_PREFIX || path.startsWith(API_PREFIX + '/');
  }

  handle(req: RequestLike, path: string, search: string, ctx: ApiContext): Answer {
    if (req.method === 'OPTIONS') return { status: 204, headers: { ...CORS_HEADERS }, body: null };
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      return problem('method_not_allowed', `${req.method} is not allowed here; the API is read-only.`, { ...CORS_HEADERS, allow: ALLOW });
    }
    this.freshness.check();
    const key = this.authenticate(req, ctx);
    const origin = header(req, 'origin');
    const restricted = key.allowed_origins.length > 0;
    const cors = restricted ? { ...CORS_HEADERS, 'access-control-allow-origin': allowedOriginFor(key.allowed_origins, origin) } : CORS_HEADERS;
    if (origin !== undefined && restricted && !key.allowed_origins.includes(origin)) {
      throw new HttpProblem('origin_not_allowed', 'This API key may not be used from this website.', cors);
    }
    const profile = this.profileOf(key);
    const limit = this.keyLimiter.take(key.id, profile.limit);
    if (!limit.ok) {
      throw new HttpProblem('rate_limited', `Too many requests for this key; retry in ${limit.retryAfter} s.`, { ...this.errorHeaders(cors, profile, limit), 'retry-after': limit.retryAfter });
    }
    this.lastUse.touch(key.id);
    const views = this.views.get(key.facility_id);
    let body: ApiBody | undefined;
    if (path === API_PREFIX) {
      if (!views) throw new HttpProblem('not_found', NOT_FOUND, this.errorHeaders(cors, profile, limit));
      body = this.views.listBody(views, this.listQuery(search, cors, profile, limit));
    } else {
      body = views?.details.get(path.slice(API_PREFIX.length + 1));
      if (!body) throw new HttpProblem('not_found', NOT_FOUND, this.errorHeaders(cors, profile, limit));
    }
    // The hot path: pre-built header lists joined, no per-request objects (see docs/performance.md).
    const inm = header(req, 'if-none-match');
    const notModified = inm !== undefined && etagMatches(inm, body.etag);
    return {
      status: notModified ? 304 : 200,
      headers: [
        ...(profile.cors ?? corsHeaderListFor(String(cors['access-control-allow-origin']))),
        ...(notModified ? body.notModified : body.ok),
        'ratelimit-policy', profile.policy,
        'ratelimit', limit.rateLimit,
      ],
      body: notModified ? null : body.bytes,
    };
  }

  // No closures are made per request (tsx's keepNames would name each one): helpers are methods.
  private listQuery(search: string, cors: Headers, profile: KeyProfile, limit: Decision): ListQuery | undefined {
    try {
      return parseListQuery(search);
    } catch (err) {
      if (err instanceof HttpProblem) throw new HttpProblem(err.code, err.detail, this.errorHeaders(cors, profile, limit));
      throw err;
    }
  }

  private errorHeaders(cors: Headers, profile: KeyProfile, limit: Decision): Headers {
    return { ...cors, ...this.keyLimiter.headersOf(profile.limit, limit) };
  }

  private profileOf(key: KeyInfo): KeyProfile {
    let profile = this.profiles.get(key);
    if (!profile) {
      const limit = limitOf(key, this.opts.defaultLimit);
      profile = { limit, policy: this.keyLimiter.policyOf(limit), cors: key.allowed_origins.length === 0 ? CORS_HEADER_LIST : undefined };
      this.profiles.set(key, profile);
    }
    return profile;
  }

  private authenticate(req: RequestLike, ctx: ApiContext): KeyInfo {
    const v = this.keys.verify(header(req, 'x-api-key'));
    if (v.ok) {
      ctx.keyId = v.key.id;
      return v.key;
    }
    // Failed authentication is limited per client address, so keys cannot be guessed at speed.
    const limit = this.authLimiter.take(req.remoteAddress, this.opts.authFailureLimit);
    if (!limit.ok) {
      throw new HttpProblem('rate_limited', `Too many failed authentications; retry in ${limit.retryAfter} s.`, { ...CORS_HEADERS, 'retry-after': limit.retryAfter });
    }
    throw new HttpProblem(v.reason, KEY_MESSAGES[v.reason], { ...CORS_HEADERS, 'www-authenticate': 'ApiKey header="X-API-Key"' });
  }

  close(): void {
    this.lastUse.stop();
  }
}

/** A key's own rate and burst where set, the default for the part that is not (a rate alone gets a 5-second burst). */
function limitOf(key: KeyInfo, fallback: Limit): Limit {
  if (key.rate_per_s === null && key.burst === null) return fallback;
  const rate = key.rate_per_s ?? fallback.rate;
  return { rate, burst: key.burst ?? (key.rate_per_s === null ? fallback.burst : Math.ceil(rate * 5)) };
}

/** If-None-Match uses the weak comparison (RFC 9110 13.1.2): W/ prefixes are ignored; `*` matches. */
export function etagMatches(ifNoneMatch: string, etag: string): boolean {
  if (ifNoneMatch === etag) return true;
  if (ifNoneMatch.trim() === '*') return true;
  return ifNoneMatch.split(',').some((t) => t.trim().replace(/^W\//, '') === etag);
}
