// Token buckets: one per key (its own or the default limit) and one per client address for failed authentication.
import { performance } from 'node:perf_hooks';
import { memoBy } from '../memo.ts';
import type { Headers } from '../transport/answer.ts';

export interface Limit {
  rate: number; // tokens per second
  burst: number; // bucket size
}

export interface Decision {
  readonly ok: boolean;
  readonly retryAfter: number;
  /** The RateLimit header's value, `"name";r=remaining;t=seconds`. */
  readonly rateLimit: string;
  /** Refused, and refused so often that the client is not waiting for Retry-After: its answer may be held back. */
  readonly persistent: boolean;
}

/** One client's tokens: callers that answer the same client often may keep it (the API keeps it with the key). */
export interface Bucket {
  tokens: number;
  at: number;
  /** Refusals the client may still take before it counts as persistent: a second bucket, refilled at the same rate. */
  patience: number;
}

/** Clients remembered: past it the least recently seen is forgotten (and starts again with a full bucket). */
const MAX_BUCKETS = 100_000;
/** RateLimit values kept (a key's burst of 500 over its 6 possible t makes about 3,000). */
const MAX_TEXTS = 16_384;

export class RateLimiter {
  /** Buckets by client, the least recently seen out first: a flood of new clients cannot refill one being limited. */
  readonly buckets = memoBy<string, Bucket, { burst: number; t: number }>(MAX_BUCKETS, (_id, { burst, t }) => ({
    tokens: burst,
    at: t,
    patience: burst,
  }));
  /** RateLimit values by remaining and seconds, the least recently answered out first. (Tests read both memos.) */
  readonly texts = memoBy<number, string>(MAX_TEXTS, (key) => this.textOf(Math.floor(key / 4096), key % 4096));

  constructor(
    private readonly name: string,
    private readonly now: () => number = () => performance.now() / 1000,
  ) {}

  /** The RateLimit-Policy header's value: the same for every answer under this limit, so callers may keep it. */
  policyOf(limit: Limit): string {
    return `"${this.name}";q=${limit.burst};w=${Math.max(1, Math.ceil(limit.burst / limit.rate))}`;
  }

  /** RateLimit-Policy and RateLimit as headers (draft-ietf-httpapi-ratelimit-headers). */
  headersOf(limit: Limit, decision: Decision): Headers {
    return { 'ratelimit-policy': this.policyOf(limit), ratelimit: decision.rateLimit };
  }

  /** Takes one token from `id`'s bucket (full when new); `t` is the time in seconds on the limiter's clock. */
  take(id: string, limit: Limit, t = this.now()): Decision {
    return this.takeFrom(this.bucketOf(id, limit, t), limit, t);
  }

  /** `id`'s bucket, full when new. A bucket pruned while a caller keeps it goes on limiting that caller alone. */
  bucketOf(id: string, limit: Limit, t = this.now()): Bucket {
    return this.buckets.memo(id, { context: { burst: limit.burst, t } });
  }

  /** take(), from a bucket the caller kept (bucketOf): no lookup by id. */
  takeFrom(b: Bucket, limit: Limit, t = this.now()): Decision {
    const refill = (t - b.at) * limit.rate;
    b.tokens = Math.min(limit.burst, b.tokens + refill);
    b.patience = Math.min(limit.burst, b.patience + refill);
    b.at = t;
    const ok = b.tokens >= 1;
    // A client that backs off when refused never runs out of patience; one that keeps sending at once soon does.
    const persistent = !ok && b.patience < 1;
    if (ok) b.tokens -= 1;
    else if (!persistent) b.patience -= 1;
    const retryAfter = ok ? 0 : Math.max(1, Math.ceil((1 - b.tokens) / limit.rate));
    // t: seconds until the bucket is full again; on a refusal, until the next token, because the draft (section 6) says
    // Retry-After must not point earlier than t, and a client should not wait for a full bucket to send one request.
    const reset = ok ? Math.ceil((limit.burst - b.tokens) / limit.rate) : retryAfter;
    return { ok, retryAfter, rateLimit: this.remainingText(b, limit, reset), persistent };
  }

  /** The RateLimit value of a bucket: what is left (none while a debt is owed, the draft's r is never negative) and t. */
  private remainingText(b: Bucket, limit: Limit, reset = Math.ceil((limit.burst - b.tokens) / limit.rate)): string {
    return this.rateLimitText(Math.max(0, Math.floor(b.tokens)), reset);
  }

  /**
   * The RateLimit value for r remaining and t seconds, made once per pair: formatting two numbers into a new string
   * for every answer cost more than the lookup (and Node then flattened the string to check it).
   */
  private rateLimitText(r: number, t: number): string {
    return r >= 0 && r < 2 ** 20 && t >= 0 && t < 4096 ? this.texts.memo(r * 4096 + t) : this.textOf(r, t);
  }

  private textOf(r: number, t: number): string {
    return `"${this.name}";r=${r};t=${t}`;
  }

  /**
   * Takes `tokens` more from a bucket for work an accepted request turned out to cost; it may go below zero, a debt.
   * Returns the decision with its RateLimit value as the bucket now stands.
   */
  charge(b: Bucket, limit: Limit, decision: Decision, tokens: number): Decision {
    b.tokens -= tokens;
    return { ...decision, rateLimit: this.remainingText(b, limit) };
  }
}
