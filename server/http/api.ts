// The External Listings API: GET /external/listings and GET /external/listings/{id}, keyed by X-API-Key alone.
import type { Db } from '../store/db.ts';
import { header, HttpProblem, problem, type Answer, type Headers, type RequestLike } from './answer.ts';
import { KeyVerifier, type KeyInfo } from './auth.ts';
import { allowedOriginFor, CORS_HEADERS } from './cors.ts';
import { Freshness } from './freshness.ts';
import { LastUse } from './last-use.ts';
import { parseListQuery } from './query.ts';
import { RateLimiter, type Limit } from './rate-limit.ts';
import { ViewsCache, type Body } from './views-cache.ts';

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
    const cors = key.allowed_origins.length === 0 ? CORS_HEADERS : { ...CORS_HEADERS, 'access-control-allow-origin': allowedOriginFor(key.allowed_origins, origin) };
    if (origin !== undefined && key.allowed_origins.length > 0 && !key.allowed_origins.includes(origin)) {
      throw new HttpProblem('origin_not_allowed', 'This API key may not be used from this website.', cors);
    }
    const limit = this.keyLimiter.take(key.id, key.rate_per_s ? { rate: key.rate_per_s, burst: key.burst ?? Math.ceil(key.rate_per_s * 5) } : this.opts.defaultLimit);
    if (!limit.ok) {
      throw new HttpProblem('rate_limited', `Too many requests for this key; retry in ${limit.retryAfter} s.`, { ...cors, ...limit.headers, 'retry-after': limit.retryAfter });
    }
    this.lastUse.touch(key.id);
    const headers = { ...cors, ...limit.headers };
    const views = this.views.get(key.facility_id);
    if (path === API_PREFIX) {
      if (!views) throw new HttpProblem('not_found', NOT_FOUND, headers);
      const query = (() => {
        try {
          return parseListQuery(search);
        } catch (err) {
          if (err instanceof HttpProblem) throw new HttpProblem(err.code, err.detail, headers);
          throw err;
        }
      })();
      return cached(req, this.views.listBody(views, query), headers);
    }
    const id = path.slice(API_PREFIX.length + 1);
    const body = views?.details.get(id);
    if (!body) throw new HttpProblem('not_found', NOT_FOUND, headers);
    return cached(req, body, headers);
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

function cached(req: RequestLike, body: Body, headers: Headers): Answer {
  const h: Headers = { ...headers, etag: body.etag, 'cache-control': 'private, no-cache', 'content-type': 'application/json; charset=utf-8' };
  const inm = header(req, 'if-none-match');
  if (inm !== undefined && etagMatches(inm, body.etag)) return { status: 304, headers: h, body: null };
  return { status: 200, headers: h, body: body.bytes };
}

/** If-None-Match uses the weak comparison (RFC 9110 13.1.2): W/ prefixes are ignored; `*` matches. */
export function etagMatches(ifNoneMatch: string, etag: string): boolean {
  if (ifNoneMatch === etag) return true;
  if (ifNoneMatch.trim() === '*') return true;
  return ifNoneMatch.split(',').some((t) => t.trim().replace(/^W\//, '') === etag);
}
