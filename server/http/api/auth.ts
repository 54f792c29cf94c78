// Key verification for the API, remembering refused keys until any write, so a revoke holds from the next request.
import { memo, memoBy } from '../memo.ts';
import { keyPattern } from '../../domain/keys.ts';
import { DETAILS, problem, type Answer, type Headers } from '../transport/answer.ts';
import { CORS_HEADERS } from '../transport/cors.ts';
import type { Db } from '../../store/db.ts';
import { verifyKey, type KeyInfo, type Verification } from '../../store/keys.ts';

/** Revoked keys remembered here, and accepted keys by the API with their profiles: at most this many each. */
export const MAX_KNOWN_KEYS = 10_000;
/** Unknown keys remembered, least recently asked out first: bounded, so guessing keys at speed cannot grow memory. */
const MAX_UNKNOWN = 16_384;

/**
 * Checks a presented key against the store, remembering refusals. An accepted key is the caller's to keep (the API
 * keeps it by the key as presented, with its profile and bucket), so that a known key costs no SHA-256 per request.
 * Keys stay in this process's memory, where every request's headers are anyway; nothing here is written anywhere, and
 * the store keeps digests alone.
 */
export class KeyVerifier {
  /** Revoked keys, so that a client repeating one costs a lookup. (Tests read both.) */
  readonly revoked = memo<string, Verification>(MAX_KNOWN_KEYS);
  /**
   * Well-formed keys the store does not know, so that a client repeating one costs a lookup instead of a SHA-256
   * and a query. Bounded, and dropped with the cache on any write, so a key created by another process is known from its
   * next request.
   */
  readonly unknown = memo<string, Verification>(MAX_UNKNOWN);
  private readonly pattern: RegExp;

  constructor(
    private readonly db: Db,
    private readonly prefix: string,
  ) {
    this.pattern = keyPattern(prefix);
  }

  clear(): void {
    this.revoked.clear();
    this.unknown.clear();
  }

  verify(presented: string | undefined): Verification {
    if (presented === undefined || presented === '') return { ok: false, reason: 'missing_api_key' };
    const hit = this.revoked.get(presented) ?? this.unknown.get(presented);
    if (hit) return hit;
    if (!this.pattern.test(presented)) return { ok: false, reason: 'invalid_api_key' };
    const result = verifyKey(this.db, presented, this.prefix);
    if (result.ok) return result;
    // Refused keys go only into the two bounded memos, so guessing keys cannot grow memory.
    (result.reason === 'revoked_api_key' ? this.revoked : this.unknown).set(presented, result);
    return result;
  }
}

export type { KeyInfo };

/** How a 401 says where the key goes. */
export const WWW_AUTHENTICATE = 'ApiKey header="X-API-Key"';

/** The 401 answers, built once: a client repeating a wrong key costs no object spreads or Error per request. */
export const REFUSALS = Object.fromEntries(
  (['missing_api_key', 'invalid_api_key', 'revoked_api_key'] as const).map((reason) => [
    reason,
    refusalOf(problem(reason, DETAILS[reason](), { ...CORS_HEADERS, 'www-authenticate': WWW_AUTHENTICATE })),
  ]),
) as unknown as Record<'missing_api_key' | 'invalid_api_key' | 'revoked_api_key', Refusal>;

/** A refusal made once and answered many times: each answer copies its headers, to which the handler adds its own. */
export interface Refusal {
  status: number;
  headers: Readonly<Headers>;
  body: Buffer;
}

function refusalOf(answer: Answer): Refusal {
  return { status: answer.status, headers: Object.freeze(answer.headers), body: Buffer.from(answer.body as string) };
}

/** The 429s for a client address past its failed-authentication limit, each built once: they differ only by Retry-After. */
export class AuthRefusals {
  /** A limit refuses with a few Retry-After values (up to its refill time): 64 holds them. (Tests read it.) */
  readonly kept = memoBy<number, Refusal>(64, (retryAfter) =>
    refusalOf(
      problem('rate_limited', `Too many failed authentications; retry in ${retryAfter} s.`, {
        ...CORS_HEADERS,
        'retry-after': String(retryAfter),
      }),
    ),
  );

  of(retryAfter: number): Refusal {
    return this.kept.memo(retryAfter);
  }
}
