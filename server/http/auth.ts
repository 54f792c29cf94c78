// Key verification for the API with a cache that is dropped on any write, so a revoke holds from the next request.
import { keyPattern } from '../domain/keys.ts';
import type { Db } from '../store/db.ts';
import { verifyKey, type KeyInfo, type Verification } from '../store/keys.ts';

const MAX_CACHED = 10_000;

export class KeyVerifier {
  /**
   * Keyed by the key as presented, not by its digest: a SHA-256 per request was a third of the API's own per-request
   * cost (docs/performance.md). The keys stay in this process's memory, where every request's headers are anyway;
   * nothing here is written anywhere, and the store keeps digests alone.
   */
  private readonly cache = new Map<string, Verification>();
  private readonly pattern: RegExp;

  constructor(
    private readonly db: Db,
    private readonly prefix: string,
  ) {
    this.pattern = keyPattern(prefix);
  }

  clear(): void {
    this.cache.clear();
  }

  verify(presented: string | undefined): Verification {
    if (presented === undefined || presented === '') return { ok: false, reason: 'missing_api_key' };
    const hit = this.cache.get(presented);
    if (hit) return hit;
    if (!this.pattern.test(presented)) return { ok: false, reason: 'invalid_api_key' };
    const result = verifyKey(this.db, presented, this.prefix);
    // Only known keys are cached: guessed keys must not grow memory.
    if (result.ok || result.reason === 'revoked_api_key') {
      if (this.cache.size >= MAX_CACHED) this.cache.clear();
      this.cache.set(presented, result);
    }
    return result;
  }
}

export type { KeyInfo };
