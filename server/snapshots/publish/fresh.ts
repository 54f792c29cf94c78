// When a published file is due again: half its TTL after it was made (so a copy on a CDN never nears expiry), or once
// a promotion of its facility starts or ends after it was made (the API's answers change at that instant).
import type { Published } from '../../store/published.ts';

type Held = Pick<Published, 'contentDigest' | 'kid' | 'generatedAt' | 'expiresAt'>;

/** The instant (ms) half of a file's validity has passed. */
export function resignAt(generatedAt: string, expiresAt: string): number {
  const generated = Date.parse(generatedAt);
  return generated + (Date.parse(expiresAt) - generated) / 2;
}

/** The first of a facility's promotion instants after its file's generatedAt, or Infinity when none is ahead. */
export function nextChangeAfter(instants: readonly number[] | undefined, generatedAt: string): number {
  const made = Date.parse(generatedAt);
  let next = Number.POSITIVE_INFINITY;
  for (const t of instants ?? []) if (t > made && t < next) next = t;
  return next;
}

/** A promotion started or ended after the file was made, by `now`: what the file precomputes is stale. */
export const changedSince = (instants: readonly number[] | undefined, generatedAt: string, now: Date): boolean =>
  nextChangeAfter(instants, generatedAt) <= now.getTime();

/**
 * Unchanged data, signed by the current key, whose expiry is more than half its TTL away needs nothing. Past half
 * the TTL it is re-signed, so a copy on a CDN never comes near its expiry while publishing goes on; after a key
 * rotation everything is re-signed with the new key.
 */
export function isFresh(held: Held | undefined, digest: string, kid: string, now: Date): boolean {
  if (!held || held.contentDigest !== digest || held.kid !== kid) return false;
  return now.getTime() < resignAt(held.generatedAt, held.expiresAt);
}

/** Fresh, and made after the last start or end of a promotion of its facility, as of the publish's generatedAt. */
export function isCurrent(
  held: Held | undefined,
  digest: string,
  kid: string,
  changes: readonly number[] | undefined,
  t: { now: Date; generatedAt: Date },
): boolean {
  if (!held || !isFresh(held, digest, kid, t.now)) return false;
  return !changedSince(changes, held.generatedAt, t.generatedAt);
}
