// The External Listings API: GET /external/listings and GET /external/listings/{id}, keyed by X-API-Key alone.
import { performance } from 'node:perf_hooks';
import { addressGroupOf } from '../../domain/address-group.ts';
import { effectiveLimitOf } from '../../domain/keys.ts';
import type { Db } from '../../store/db.ts';
import { keysDigest } from '../../store/keys.ts';
import { memo } from '../memo.ts';
import {
  DETAILS,
  heldBack,
  header,
  problem,
  ProblemBodies,
  type Answer,
  type Headers,
  type RequestLike,
} from '../transport/answer.ts';
import { AuthRefusals, KeyVerifier, MAX_KNOWN_KEYS, REFUSALS, type KeyInfo } from './auth.ts';
import { etagMatches } from '../transport/etag.ts';
import { allowedOriginFor, CORS_HEADERS, corsHeadersFor } from '../transport/cors.ts';
import { Codings } from '../transport/encoding.ts';
import { UNAVAILABLE_RETRY_AFTER_S, type Freshness } from '../../freshness/freshness.ts';
import type { Logger } from '../../logger.ts';
import { LastUse, useSlotOf, type UseSlot } from './last-use.ts';
import { ListQueries } from '../views/query.ts';
import { RateLimiter, type Bucket, type Decision, type Limit } from './rate-limit.ts';
import { codedBody, type FacilityViews, type Variant } from '../views/facility-views.ts';
import type { ViewsCache } from '../views/views-cache.ts';

export const API_PREFIX = '/external/listings';
const API_PREFIX_SLASH = `${API_PREFIX}/`;
/** A filtered list made anew takes one more token per this many listings it passed over (a request's own one aside). */
export const LISTINGS_PER_TOKEN = 200;
/** The name of the keys' rate-limit policy in RateLimit-Policy and RateLimit. */
export const KEY_POLICY_NAME = 'key';

export interface ApiOptions {
  db: Db;
  publicUrl: string;
  keyPrefix: string;
  defaultLimit: Limit;
  authFailureLimit: Limit;
  lastUseIntervalMs?: number;
  cacheBudgetBytes?: number;
  /** How long the refusal of a client that keeps sending while refused is held back (a server sets it). */
  holdRefusedMs?: number;
  /** Filtered lists larger than this are compressed off the event loop and answered `later` (a server sets it). */
  offLoopBytes?: number;
  /** Where last-use times go instead of db (PostgreSQL, shared by every node). */
  recordLastUse?: (uses: ReadonlyMap<string, Date>) => void;
  /** Errors at every level; a line per answered request (the request log) when its level takes `info`. */
  logger?: Logger;
}

/** The CORS headers of answers with one Access-Control-Allow-Origin. */
interface Cors {
  headers: Readonly<Headers>;
  /** With Accept-Encoding in Vary: for bodies to requests that sent Accept-Encoding. */
  coded: Readonly<Headers>;
}

/**
 * Every answer to a key names its ref (X-Partner-Ref), so the widget can credit its partner without a third endpoint.
 * Frozen: every answer of the key reads them, and none may change them.
 */
export function corsOf(allowOrigin: string, ref: string): Cors {
  const partner = { 'x-partner-ref': ref };
  return {
    headers: Object.freeze({ ...corsHeadersFor(allowOrigin, false), ...partner }),
    coded: Object.freeze({ ...corsHeadersFor(allowOrigin, true), ...partner }),
  };
}

const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

/**
 * The headers of a body's answer to a key, as one object literal: V8 makes it whole, its properties inside it, in one
 * shape for every answer, and Node's writeHead walks few shapes. Against copying the key's CORS set into a new object,
 * the handler runs 1.11x faster, a detail 1.04x and the field mix 1.11x (`npm run bench -- --base`,
 * docs/performance.md). A 304 carries what RFC 9110 15.4.5 lists (ETag, Cache-Control, Vary) and these; a 200 adds its
 * Content-Type and Content-Encoding, and the handler its Content-Length. The request id and nosniff, which the handler
 * sets on every answer, are named here as well, so that its writes find them and leave the shape as it is.
 */
function keyedHeaders(
  cors: Readonly<Headers>,
  etag: string,
  policy: string,
  rateLimit: string,
  requestId: string,
): Headers {
  return {
    'access-control-allow-origin': cors['access-control-allow-origin']!,
    'access-control-allow-headers': cors['access-control-allow-headers']!,
    'access-control-allow-methods': cors['access-control-allow-methods']!,
    'access-control-max-age': cors['access-control-max-age']!,
    'access-control-expose-headers': cors['access-control-expose-headers']!,
    vary: cors.vary!,
    'x-partner-ref': cors['x-partner-ref']!,
    etag,
    'cache-control': 'private, no-cache',
    'ratelimit-policy': policy,
    ratelimit: rateLimit,
    'x-request-id': requestId,
    'x-content-type-options': 'nosniff',
  };
}

/** The answer while this node cannot confirm its data is current: refused rather than possibly stale. */
const UNAVAILABLE_HEADERS = Object.freeze({ ...CORS_HEADERS, 'retry-after': String(UNAVAILABLE_RETRY_AFTER_S) });

/** What every answer to one key shares, worked out on its first request (and again after a data change). */
interface KeyProfile {
  key: KeyInfo;
  /** The key's own bucket of the key limiter, kept here: a request looks up its key once, not its bucket as well. */
  bucket: Bucket;
  limit: Limit;
  policy: string;
  /** For requests without Origin (servers); an origin-restricted key's names its first allowed origin. */
  cors: Cors;
  /** An origin-restricted key's, for each origin it allows (echoed back). */
  byOrigin: ReadonlyMap<string, Cors>;
  /** Where a request records the key's last use. */
  use: UseSlot;
}

/** What the API and the handler share about one request. */
export interface ApiContext {
  /** The request's X-Request-Id, made by the handler (which adds it to every answer). */
  requestId: string;
  /** The key's id, for the request log, once the key is known. */
  keyId: string | undefined;
}

/** What the app owns and the API reads: when data changed, and the facilities' answers (shared with the pages). */
export interface ApiParts {
  freshness: Freshness;
  views: ViewsCache;
}

export class ListingsApi {
  readonly freshness: Freshness;
  readonly lastUse: LastUse;
  readonly views: ViewsCache;
  private readonly keys: KeyVerifier;
  private readonly keyLimiter = new RateLimiter(KEY_POLICY_NAME);
  private readonly authLimiter = new RateLimiter('auth');
  /** Accepted keys by the key as presented (the verifier keeps only refusals), dropped when any key changes. */
  readonly accepted = memo<string, KeyProfile>(MAX_KNOWN_KEYS);
  private readonly problems = new ProblemBodies();
  private readonly authRefusals = new AuthRefusals();
  private readonly codings = new Codings();
  private readonly queries = new ListQueries();
  /** Inside batch(): the clock reading that serves the whole batch. */
  private batchNow: number | undefined;

  constructor(
    private readonly opts: ApiOptions,
    parts: ApiParts,
  ) {
    this.freshness = parts.freshness;
    this.views = parts.views;
    this.keys = new KeyVerifier(opts.db, opts.keyPrefix);
    this.lastUse = new LastUse(opts.db, opts.lastUseIntervalMs, opts.recordLastUse, opts.logger);
    // Dropped when a key was made, revoked or changed, not on every commit (webhook deliveries, clicks, other nodes' use).
    this.freshness.onChangeOf(
      () => keysDigest(opts.db),
      () => {
        this.keys.clear();
        this.accepted.clear();
      },
    );
  }

  /**
   * Answers a batch of requests (server.ts): one freshness check and one clock reading for all of them. The rate limit
   * and the last use then see a batch's requests at the instant it began: tokens refill from there at the next batch.
   */
  batch(fn: () => void): void {
    this.batchNow = performance.now();
    try {
      this.freshness.batch(fn);
    } finally {
      this.batchNow = undefined;
    }
  }

  /** A GET or HEAD of the list or of a listing (the router answers the other methods). */
  handle(req: RequestLike, path: string, search: string, ctx: ApiContext): Answer {
    if (!this.freshness.check())
      return this.problems.answer(
        'database_unavailable',
        DETAILS.database_unavailable(UNAVAILABLE_RETRY_AFTER_S),
        UNAVAILABLE_HEADERS,
      );
    // One clock reading per batch (or per request outside one), for the rate limit and the last use.
    const now = this.batchNow ?? performance.now();
    const presented = header(req, 'x-api-key');
    let profile = presented === undefined ? undefined : this.accepted.get(presented);
    if (profile === undefined) {
      const v = this.keys.verify(presented);
      if (!v.ok) return this.refuseKey(req, v.reason);
      profile = this.profileOf(v.key, now);
      this.accepted.set(presented!, profile);
    }
    const { key } = profile;
    ctx.keyId = key.id;
    const origin = header(req, 'origin');
    let cors = profile.cors;
    if (origin !== undefined && profile.byOrigin.size > 0) {
      const allowed = profile.byOrigin.get(origin);
      if (!allowed) {
        // CORS on every answer, errors included: the page that asked may read its refusal, which holds no data.
        const refused = { ...cors.headers, 'access-control-allow-origin': origin };
        return this.problems.answer('origin_not_allowed', DETAILS.origin_not_allowed(), refused);
      }
      cors = allowed;
    }
    const limit = this.keyLimiter.takeFrom(profile.bucket, profile.limit, now / 1000);
    if (!limit.ok)
      return this.refused(
        limit,
        this.problems.answer('rate_limited', DETAILS.rate_limited(limit.retryAfter), {
          ...this.errorHeaders(cors, profile, limit),
          'retry-after': String(limit.retryAfter),
        }),
      );
    this.lastUse.touch(profile.use, now);
    const views = this.views.lookup(key.facility_id);
    if (views instanceof Promise)
      return answerLater(
        views.then((built) => {
          const answer = this.answerFrom(built, req, path, search, cors, profile, limit, ctx);
          return answer.later ?? answer;
        }),
        ctx,
        cors,
      );
    return this.answerFrom(views, req, path, search, cors, profile, limit, ctx);
  }

  /** The list or the listing asked for, from the facility's views (undefined: the facility is not served). */
  private answerFrom(
    views: FacilityViews | undefined,
    req: RequestLike,
    path: string,
    search: string,
    cors: Cors,
    profile: KeyProfile,
    limit: Decision,
    ctx: ApiContext,
  ): Answer {
    const acceptEncoding = header(req, 'accept-encoding');
    let variant: Variant | undefined;
    if (path === API_PREFIX) {
      const query = this.queries.parse(search);
      if (typeof query === 'string')
        return this.problems.answer('invalid_parameter', query, this.errorHeaders(cors, profile, limit));
      if (views) {
        const made = this.views.listVariant(views, query, this.codings.of(acceptEncoding));
        // A list cut anew costs a pass over the facility: a token per LISTINGS_PER_TOKEN listings beyond the first.
        if (made.scanned > LISTINGS_PER_TOKEN)
          limit = this.keyLimiter.charge(
            profile.bucket,
            profile.limit,
            limit,
            Math.floor(made.scanned / LISTINGS_PER_TOKEN),
          );
        if (made.later) return this.bodyAnswer(made.later, req, cors, profile, limit, ctx);
        variant = made.variant;
      }
    } else {
      const id = idOf(path.slice(API_PREFIX_SLASH.length));
      const body = views && id !== undefined ? this.views.detailBody(views, id) : undefined;
      variant = body && codedBody(body, this.codings.of(acceptEncoding));
    }
    if (!variant)
      return this.problems.answer('not_found', DETAILS.not_found(), this.errorHeaders(cors, profile, limit));
    return this.bodyAnswer(variant, req, cors, profile, limit, ctx);
  }

  /** The answer with this body; one still being made off the event loop stands in with placeholders until `later`. */
  private bodyAnswer(
    variant: Variant | Promise<Variant>,
    req: RequestLike,
    cors: Cors,
    profile: KeyProfile,
    limit: Decision,
    ctx: ApiContext,
  ): Answer {
    if (variant instanceof Promise)
      return answerLater(
        variant.then((v) => this.bodyAnswer(v, req, cors, profile, limit, ctx)),
        ctx,
        cors,
      );
    const inm = header(req, 'if-none-match');
    const notModified = inm !== undefined && etagMatches(inm, variant.etag);
    const set = header(req, 'accept-encoding') === undefined ? cors.headers : cors.coded;
    const headers = keyedHeaders(set, variant.etag, profile.policy, limit.rateLimit, ctx.requestId);
    if (notModified) return { status: 304, headers, body: null };
    headers['content-type'] = JSON_CONTENT_TYPE;
    if (variant.coding !== null) headers['content-encoding'] = variant.coding;
    return { status: 200, headers, body: variant.bytes };
  }

  /** A 429, held back when the client keeps sending while refused (and this API holds refusals at all). */
  refused(limit: Decision, answer: Answer): Answer {
    const ms = this.opts.holdRefusedMs;
    return limit.persistent && ms !== undefined && ms > 0 ? heldBack(answer, ms) : answer;
  }

  private errorHeaders(cors: Cors, profile: KeyProfile, limit: Decision): Headers {
    return { ...cors.headers, ...this.keyLimiter.headersOf(profile.limit, limit) };
  }

  private profileOf(key: KeyInfo, now: number): KeyProfile {
    const limit = effectiveLimitOf(key, this.opts.defaultLimit);
    return {
      key,
      bucket: this.keyLimiter.bucketOf(key.id, limit, now / 1000),
      limit,
      policy: this.keyLimiter.policyOf(limit),
      cors: corsOf(allowedOriginFor(key.allowed_origins, undefined), key.ref),
      byOrigin: new Map(key.allowed_origins.map((o) => [o, corsOf(o, key.ref)])),
      use: useSlotOf(key.id),
    };
  }

  /** The answer that refuses a key the verifier did not accept. */
  private refuseKey(req: RequestLike, reason: keyof typeof REFUSALS): Answer {
    // Failed authentication is limited per client address (an IPv6 /64), so keys cannot be guessed at speed.
    const limit = this.authLimiter.take(addressGroupOf(req.remoteAddress), this.opts.authFailureLimit);
    // The same few bytes for every refused key, and for every address refused with the same Retry-After: built once.
    const refusal = limit.ok ? REFUSALS[reason] : this.authRefusals.of(limit.retryAfter);
    const answer: Answer = { status: refusal.status, headers: { ...refusal.headers }, body: refusal.body };
    return limit.ok ? answer : this.refused(limit, answer);
  }

  close(): void {
    this.lastUse.stop();
  }
}

/** A listing id as the path gives it, percent-escapes decoded (`%6Cst_...` is `lst_...`); undefined when malformed. */
function idOf(raw: string): string | undefined {
  if (!raw.includes('%')) return raw;
  try {
    return decodeURIComponent(raw);
  } catch {
    return undefined;
  }
}

/** An answer made later (off the event loop, or after a build): placeholders until then; a failure is a 500. */
function answerLater(made: Promise<Answer>, ctx: ApiContext, cors: Cors): Answer {
  return {
    status: 200,
    headers: {},
    body: null,
    later: made.catch(() => problem('internal_error', DETAILS.internal_error(ctx.requestId), cors.headers)),
  };
}
