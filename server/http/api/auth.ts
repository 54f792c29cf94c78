// Key verification for the API with a cache that is dropped on any write, so a revoke holds from the next request.
import { keyPattern } from '../../domain/keys.ts';
import { DETAILS, headerListOf, problem, type Headers } from '../transport/answer.ts';
import { CORS_HEADERS } from '../transport/cors.ts';
import type { Db } from '../../store/db.ts';
import { verifyKey, type KeyInfo, type Verification } from '../../store/keys.ts';

const MAX_CACHED = 10_000;
/** Unknown keys remembered, oldest out first: bounded, so guessing keys at speed cannot grow memory. */
const MAX_UNKNOWN = 16_384;

export class KeyVerifier {
  /**
   * Keyed by the key as presented, so a known key costs no SHA-256 per request. The keys stay in this process's memory,
   * where every request's headers are anyway; nothing here is written anywhere, and the store keeps digests alone.
   */
  private readonly cache = new Map<string, Verification>();
  /**
   * Well-formed keys the store does not know, so that a client repeating one costs a Map lookup instead of a SHA-256
   * and a query. Bounded, and dropped with the cache on any write, so a key created by another process is known from its
   * next request.
   */
  private readonly unknown = new Map<string, Verification>();
  private readonly pattern: RegExp;

  constructor(
    private readonly db: Db,
    private readonly prefix: string,
  ) {
    this.pattern = keyPattern(prefix);
  }

  clear(): void {
    this.cache.clear();
    this.unknown.clear();
  }

  verify(presented: string | undefined): Verification {
    if (presented === undefined || presented === '') return { ok: false, reason: 'missing_api_key' };
    const hit = this.cache.get(presented) ?? this.unknown.get(presented);
    if (hit) return hit;
    if (!this.pattern.test(presented)) return { ok: false, reason: 'invalid_api_key' };
    const result = verifyKey(this.db, presented, this.prefix);
    // Known keys are cached; guessed keys only in the small bounded map, so they cannot grow memory.
    if (result.ok || result.reason === 'revoked_api_key') {
      if (this.cache.size >= MAX_CACHED) this.cache.clear();
      this.cache.set(presented, result);
    } else {
      if (this.unknown.size >= MAX_UNKNOWN) this.unknown.delete(this.unknown.keys().next().value!);
      this.unknown.set(presented, result);
    }
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

/** A refusal made once and answered many times: its header list carries its content-length. */
export interface Refusal {
  status: number;
  headers: readonly string[];
  body: Buffer;
}

function refusalOf(answer: ReturnType<typeof problem>): Refusal {
  const body = Buffer.from(answer.body as string);
  return {
    status: answer.status,
    headers: headerListOf({ ...(answer.headers as Headers), 'content-length': String(body.length) }),
    body,
  };
}

/** The failed-authentication 429s by their Retry-After, each built once: they differ only by that number. */
const authRefusals = new Map<number, Refusal>();

/** The 429 for a client address past its failed-authentication limit. */
export function authRefusal(retryAfter: number): Refusal {
  let refusal = authRefusals.get(retryAfter);
  if (refusal === undefined) {
    refusal = refusalOf(
      problem('rate_limited', `Too many failed authentications; retry in ${retryAfter} s.`, {
        ...CORS_HEADERS,
        'retry-after': String(retryAfter),
      }),
    );
    if (authRefusals.size >= 64) authRefusals.clear();
    authRefusals.set(retryAfter, refusal);
  }
  return refusal;
}
