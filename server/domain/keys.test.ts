// Keys as values: format, an unbiased alphabet, digests and the format check.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { MAX_BURST } from '../../shared/key-limits.ts';
import { digestOf, effectiveLimitOf, generateKey, hintOf, keyPattern, newKeyId, randomAlphanumeric } from './keys.ts';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

describe('generateKey', () => {
  it('is <prefix>_live_ and 32 letters or digits', () => {
    expect(generateKey('svc')).toMatch(/^svc_live_[A-Za-z0-9]{32}$/);
    expect(generateKey('acme2')).toMatch(/^acme2_live_[A-Za-z0-9]{32}$/);
  });

  it('never repeats', () => {
    const keys = new Set(Array.from({ length: 1000 }, () => generateKey('svc')));
    expect(keys.size).toBe(1000);
  });

  it('uses all 62 characters about equally, without a modulo bias towards the first ones', () => {
    // 2000 keys = 64000 characters, about 1032 of each; one standard deviation is about 32.
    const counts = new Map<string, number>();
    for (let i = 0; i < 2000; i++) {
      for (const c of generateKey('svc').slice('svc_live_'.length)) counts.set(c, (counts.get(c) ?? 0) + 1);
    }
    expect([...counts.keys()].sort().join('')).toBe([...ALPHABET].sort().join(''));
    const mean = 64000 / 62;
    for (const n of counts.values()) {
      expect(n).toBeGreaterThan(mean / 2);
      expect(n).toBeLessThan(mean * 2);
    }
    // `byte % 62` without rejection would make the first 8 characters 25 % more likely (5/256 against 4/256).
    const avg = (cs: string[]) => cs.reduce((s, c) => s + counts.get(c)!, 0) / cs.length;
    const first = avg([...ALPHABET.slice(0, 8)]);
    const rest = avg([...ALPHABET.slice(8)]);
    expect(first / rest).toBeGreaterThan(0.9);
    expect(first / rest).toBeLessThan(1.1);
  });

  it('randomAlphanumeric gives exactly the length asked for', () => {
    for (const n of [1, 16, 32, 100]) expect(randomAlphanumeric(n)).toMatch(new RegExp(`^[A-Za-z0-9]{${n}}$`));
  });
});

describe('keyPattern', () => {
  const key = 'svc_live_' + 'aB3'.repeat(10) + 'xY';
  it('accepts exactly the format for its prefix', () => {
    expect(keyPattern('svc').test(key)).toBe(true);
    expect(keyPattern('acme').test(key)).toBe(false);
    expect(keyPattern('acme').test(key.replace('svc', 'acme'))).toBe(true);
  });
  it.each([
    ['too short', key.slice(0, -1)],
    ['too long', key + 'a'],
    ['a test key', key.replace('_live_', '_test_')],
    ['a symbol', key.slice(0, -1) + '-'],
    ['a non-ASCII letter', key.slice(0, -1) + 'ł'],
    ['surrounding space', ` ${key}`],
    ['a trailing newline', `${key}\n`],
  ])('rejects %s', (_name, value) => {
    expect(keyPattern('svc').test(value)).toBe(false);
  });
});

describe('digest, hint and id', () => {
  it('stores the SHA-256 hex digest and the last 4 characters', () => {
    const key = generateKey('svc');
    expect(digestOf(key)).toBe(createHash('sha256').update(key).digest('hex'));
    expect(digestOf(key)).toMatch(/^[0-9a-f]{64}$/);
    expect(hintOf(key)).toBe(key.slice(-4));
  });
  it('key ids are key_ and 16 letters or digits', () => {
    expect(newKeyId()).toMatch(/^key_[A-Za-z0-9]{16}$/);
    expect(newKeyId()).not.toBe(newKeyId());
  });
});

describe('effectiveLimitOf', () => {
  const fallback = { rate: 100, burst: 500 };

  it('gives a rate alone a 5-second burst, never above the largest burst a key may have', () => {
    expect(effectiveLimitOf({ rate_per_s: 20, burst: null }, fallback)).toEqual({ rate: 20, burst: 100 });
    // A rate stored before rates were capped: its derived burst is capped all the same.
    expect(effectiveLimitOf({ rate_per_s: 99_999_999, burst: null }, fallback)).toEqual({
      rate: 99_999_999,
      burst: MAX_BURST,
    });
    expect(effectiveLimitOf({ rate_per_s: null, burst: null }, fallback)).toEqual(fallback);
  });
});
