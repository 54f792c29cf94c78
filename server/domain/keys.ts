// API keys as values: generation from a CSPRNG, the stored digest, and the format check. No I/O.
import { createHash, randomBytes } from 'node:crypto';
import { BURST_SECONDS, MAX_BURST } from '../../shared/key-limits.ts';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const SECRET_LENGTH = 32;
/** The largest multiple of 62 below 256: bytes at or above it are thrown away, so every character is equally likely. */
const UNBIASED_LIMIT = 256 - (256 % ALPHABET.length);

export const KEY_PREFIX_PATTERN = /^[a-z][a-z0-9]{0,15}$/;

export function randomAlphanumeric(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < UNBIASED_LIMIT) out += ALPHABET[byte % ALPHABET.length];
      if (out.length === length) break;
    }
  }
  return out;
}

export function generateKey(prefix: string): string {
  return `${prefix}_live_${randomAlphanumeric(SECRET_LENGTH)}`;
}

export function digestOf(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

export function keyPattern(prefix: string): RegExp {
  return new RegExp(`^${prefix}_live_[A-Za-z0-9]{${SECRET_LENGTH}}$`);
}

/**
 * Where a key, or most of one, could hide in text we log (a partner may paste a key into a URL): whatever follows
 * `_live_` in a segment, whatever the prefix; and any run of 24 or more letters, digits and percent-escapes, which
 * leaves too few characters of a secret unknown to keep it one.
 */
const AFTER_KEY_MARKER = /_live_[^/?#]*/gi;
const SECRET_LIKE = /(?:[A-Za-z0-9]|%[0-9A-Fa-f]{2}){24,}/g;
const SHORTEST_SECRET_LIKE = 24;

/** A percent-escape of a letter, a digit or one of `-._~`: it means the character itself (RFC 3986, 6.2.2.2). */
const ESCAPE = /%([0-9A-Fa-f]{2})/g;
const UNRESERVED = /^[A-Za-z0-9._~-]$/;

/** The text with its escapes of unreserved characters decoded, so that `svc_live_Ab%43d` reads as the key it is. */
function decodeUnreserved(text: string): string {
  if (!text.includes('%')) return text;
  return text.replace(ESCAPE, (escape, hex: string) => {
    const char = String.fromCharCode(parseInt(hex, 16));
    return UNRESERVED.test(char) ? char : escape;
  });
}

/** The text with anything that could be a key's secret replaced, for log lines built from what clients send. */
export function redactSecrets(text: string): string {
  if (text.length < SHORTEST_SECRET_LIKE) return text;
  return decodeUnreserved(text).replace(AFTER_KEY_MARKER, '_live_[redacted]').replace(SECRET_LIKE, '[redacted]');
}

export function hintOf(key: string): string {
  return key.slice(-4);
}

export function newKeyId(): string {
  return `key_${randomAlphanumeric(16)}`;
}

export type KeyRejection = 'missing_api_key' | 'invalid_api_key' | 'revoked_api_key';

/** The limit of a key that sets none of its own: 100 requests/s, and a burst of 500 (BURST_SECONDS of that rate). */
export const DEFAULT_KEY_LIMIT: Readonly<{ rate: number; burst: number }> = Object.freeze({ rate: 100, burst: 500 });

/**
 * A key's own rate and burst where set, the default for the part that is not: a rate alone gets BURST_SECONDS of it,
 * at most MAX_BURST (rates stored before they were capped may be larger than MAX_RATE_PER_S).
 */
export function effectiveLimitOf(
  key: { rate_per_s: number | null; burst: number | null },
  fallback: { rate: number; burst: number },
): { rate: number; burst: number } {
  if (key.rate_per_s === null && key.burst === null) return fallback;
  const rate = key.rate_per_s ?? fallback.rate;
  const derived = Math.min(MAX_BURST, Math.ceil(rate * BURST_SECONDS));
  return { rate, burst: key.burst ?? (key.rate_per_s === null ? fallback.burst : derived) };
}
