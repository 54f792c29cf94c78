// What a target's pointer says it holds for a facility: read before a new version is chosen, so versions only grow.
import { contentDigestOf } from '../format/format.ts';
import { indexSummaryOf, type IndexSummary } from '../format/index-entry.ts';
import { pointerKey } from '../targets/layout.ts';
import type { Target } from '../targets/target.ts';

/** The content digest a withdrawn facility's record and pointer carry: no content has it. */
export const WITHDRAWN = 'withdrawn';

export interface Pointer {
  version: number;
  /** WITHDRAWN for a tombstone. */
  contentDigest: string;
  kid: string;
  generatedAt: string;
  expiresAt: string;
  /** What index.json says about it; undefined for a tombstone. */
  summary?: IndexSummary;
}

type Parsed = Partial<Record<'generated_at' | 'expires_at' | 'kid' | 'state', unknown>> & {
  version?: unknown;
  facility?: unknown;
  listings?: unknown;
};

/**
 * Unverified on purpose: it only lifts the next version and spares an upload of identical data. A pointer that is
 * neither a snapshot nor a tombstone counts as absent (the next version then comes from the local counter alone).
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
  if (typeof generatedAt !== 'string' || typeof expiresAt !== 'string' || typeof kid !== 'string') return undefined;
  if (p.state === 'withdrawn') return { version, contentDigest: WITHDRAWN, kid, generatedAt, expiresAt };
  if (!Array.isArray(p.listings) || typeof p.facility !== 'object' || p.facility === null) return undefined;
  const facility = p.facility as { id: string; name: string };
  const listings = p.listings as Parameters<typeof indexSummaryOf>[1];
  return {
    version,
    contentDigest: contentDigestOf({ facility, listings: p.listings }),
    kid,
    generatedAt,
    expiresAt,
    summary: indexSummaryOf(facility, listings),
  };
}
