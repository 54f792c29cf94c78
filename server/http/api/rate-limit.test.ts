import { expect, it } from 'vitest';
import { RateLimiter } from './rate-limit.ts';

const limit = { rate: 10, burst: 5 };

it('a client that keeps sending while refused runs out of patience after a burst of refusals; one that waits never does', () => {
  let t = 0;
  const limiter = new RateLimiter('key', () => t);
  for (let i = 0; i < 5; i++) expect(limiter.take('eager', limit).ok).toBe(true);
  const refusals = Array.from({ length: 8 }, () => limiter.take('eager', limit));
  expect(refusals.every((d) => !d.ok)).toBe(true);
  // Five refusals (the burst) are forgiven; from the sixth on, the client is sending without waiting.
  expect(refusals.map((d) => d.persistent)).toEqual([false, false, false, false, false, true, true, true]);
  // Quiet for a second: patience comes back at the limit's rate, as tokens do.
  t += 1;
  expect(limiter.take('eager', limit).ok).toBe(true);

  // A client that honours Retry-After: refused now and then, never persistent.
  for (let round = 0; round < 50; round++) {
    for (let i = 0; i < 6; i++) expect(limiter.take('polite', limit, t).persistent).toBe(false);
    t += 1;
  }
});

it('a refused client that keeps sending stays persistent while it does, then recovers', () => {
  let t = 0;
  const limiter = new RateLimiter('page', () => t);
  for (let i = 0; i < 100; i++) limiter.take('flood', limit);
  const refused = [];
  for (let k = 0; k < 200; k++) {
    t += 0.01; // 100 requests a second against a rate of 10
    const d = limiter.take('flood', limit);
    if (!d.ok) refused.push(d.persistent);
  }
  // Patience comes back at the rate, so some refusals are forgiven, but most of a flood's are held to be persistent.
  expect(refused.filter(Boolean).length).toBeGreaterThan(refused.length * 0.75);
  t += 2;
  const after = limiter.take('flood', limit);
  expect(after.ok).toBe(true);
  expect(after.persistent).toBe(false);
});

it('RateLimit counts down per request and names its limiter, also when kept texts are reused or a debt is owed', () => {
  let t = 0;
  const keys = new RateLimiter('key', () => t);
  const pages = new RateLimiter('page', () => t);
  const seen = Array.from({ length: 5 }, () => keys.take('a', limit).rateLimit);
  expect(seen).toEqual(['"key";r=4;t=1', '"key";r=3;t=1', '"key";r=2;t=1', '"key";r=1;t=1', '"key";r=0;t=1']);
  expect(pages.take('a', limit).rateLimit).toBe('"page";r=4;t=1');
  // Another client at the same count gets the same text; a refusal says when the next token comes.
  expect(keys.take('b', limit).rateLimit).toBe('"key";r=4;t=1');
  expect(keys.take('a', limit).rateLimit).toBe('"key";r=0;t=1');
  // Work charged is counted at once; beyond the bucket it is a debt: nothing remains (r is never negative) and the wait
  // grows.
  const b = keys.bucketOf('c', limit);
  const taken = keys.takeFrom(b, limit, t);
  expect(taken.rateLimit).toBe('"key";r=4;t=1');
  expect(keys.charge(b, limit, taken, 2)).toEqual({ ...taken, rateLimit: '"key";r=2;t=1' });
  expect(keys.charge(b, limit, taken, 40).rateLimit).toBe('"key";r=0;t=5');
  const refused = keys.takeFrom(b, limit, t);
  expect(refused).toMatchObject({ ok: false, rateLimit: '"key";r=0;t=4', retryAfter: 4 });
  t += 10;
  expect(keys.take('a', limit).rateLimit).toBe('"key";r=4;t=1');
});

it('a flood of new addresses keeps 100,000 buckets and never refills a limited client that keeps sending', () => {
  const t = 0;
  const limiter = new RateLimiter('auth', () => t);
  for (let i = 0; i < limit.burst; i++) expect(limiter.take('guesser', limit).ok).toBe(true);
  for (let i = 0; i < 120_000; i++) {
    limiter.take(`10.${i >> 16}.${(i >> 8) & 255}.${i & 255}`, limit);
    if (i % 10_000 === 0) expect(limiter.take('guesser', limit).ok, `after ${i} new addresses`).toBe(false);
  }
  expect(limiter.buckets.size).toBe(100_000);
  expect(limiter.take('guesser', limit).ok).toBe(false);
  // The first address of the flood, seen once and never again, is the one forgotten.
  expect(limiter.buckets.get('10.0.0.0')).toBeUndefined();
});

it('keeps 16,384 RateLimit texts, the latest among them', () => {
  const limiter = new RateLimiter('key', () => 0);
  const wide = { rate: 10, burst: 20_000 };
  for (let i = 0; i < 20_000; i++) limiter.take('a', wide);
  expect(limiter.texts.size).toBe(16_384);
  const kept = [...limiter.texts.values()];
  expect(kept).toContain('"key";r=0;t=2000');
  expect(kept).not.toContain('"key";r=19999;t=1');
});
