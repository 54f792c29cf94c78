// Token buckets: one per key (its own or the default limit) and one per client address for failed authentication.
import type { Headers } from './answer.ts';

export interface Limit {
  rate: number; // tokens per second
  burst: number; // bucket size
}

interface Bucket {
  tokens: number;
  at: number;
}

export interface Decision {
  ok: boolean;
  headers: Headers;
  retryAfter: number;
}

const MAX_BUCKETS = 100_000;

export class RateLimiter {
  private readonly buckets = new Map<string, Bucket>();

  constructor(
    private readonly name: string,
    private readonly now: () => number = () => performance.now() / 1000,
  ) {}

  /** Takes one token; the headers follow draft-ietf-httpapi-ratelimit-headers (RateLimit-Policy and RateLimit). */
  take(id: string, limit: Limit): Decision {
    const t = this.now();
    let b = this.buckets.get(id);
    if (!b) {
      if (this.buckets.size >= MAX_BUCKETS) this.prune(t);
      b = { tokens: limit.burst, at: t };
      this.buckets.set(id, b);
    }
    b.tokens = Math.min(limit.burst, b.tokens + (t - b.at) * limit.rate);
    b.at = t;
    const ok = b.tokens >= 1;
    if (ok) b.tokens -= 1;
    const remaining = Math.floor(b.tokens);
    const reset = Math.ceil((limit.burst - b.tokens) / limit.rate);
    const retryAfter = ok ? 0 : Math.max(1, Math.ceil((1 - b.tokens) / limit.rate));
    return {
      ok,
      retryAfter,
      headers: {
        'ratelimit-policy': `"${this.name}";q=${limit.burst};w=${Math.max(1, Math.ceil(limit.burst / limit.rate))}`,
        ratelimit: `"${this.name}";r=${remaining};t=${reset}`,
      },
    };
  }

  /** Drops full buckets (clients that have been quiet long enough to be back at burst). */
  private prune(t: number): void {
    for (const [id, b] of this.buckets) if (t - b.at > 3600) this.buckets.delete(id);
    if (this.buckets.size >= MAX_BUCKETS) this.buckets.clear();
  }
}
