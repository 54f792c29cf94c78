// When a published file is due again: half its TTL after it was made (so a copy on a CDN never nears expiry), or once
// a promotion of its facility starts or ends after it was made (the API's answers change at that instant).

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
