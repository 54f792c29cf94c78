// What a target's pointer says it holds for a facility: read before a new version is chosen, so versions only grow.
import { contentDigestOf } from './format.ts';
import { pointerKey } from './targets/layout.ts';
import type { Target } from './targets/target.ts';

export interface Pointer {
  version: number;
  contentDigest: string;
  kid: string;
  generatedAt: string;
  expiresAt: string;
}

type Parsed = Partial<Record<'generated_at' | 'expires_at' | 'kid', unknown>> & {
  version?: unknown;
  facility?: unknown;
  listings?: unknown;
};

/**
 * Unverified on purpose: it only lifts the next version and spares an upload of identical data. A pointer that is
 * not a snapshot counts as absent (the next version then comes from the local counter alone).
 */
export async function readPointer(target: Target, facilityId: string): Promise<Pointer | undefined> {
  const bytes = await target.get(pointerKey(facilityId));
  if (!bytes) return undefined;
  let p: Parsed;
  try {
    p = JSON.parse(bytes.toString('utf8')) as Parsed;
  } catch {
    return undefined;
  }
  const { version, generated_at: generatedAt, expires_at: expiresAt, kid } = p;
  if (typeof version !== 'number' || !Number.isSafeInteger(version) || version < 1 || version > 2 ** 52)
    return undefined;
  if (
    typeof generatedAt !== 'string' ||
    typeof expiresAt !== 'string' ||
    typeof kid !== 'string' ||
    !Array.isArray(p.listings)
  )
    return undefined;
  const facility = p.facility as { id: string; name: string };
  return { version, contentDigest: contentDigestOf({ facility, listings: p.listings }), kid, generatedAt, expiresAt };
}
