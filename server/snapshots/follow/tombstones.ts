// A follower's held tombstones: the publisher signs each again at half its TTL, or with a new key, without a feed item
// and outside index.json, so the follower looks for the new version itself, as the index brings it a re-signed listing.
import { Tombstone } from '../format/feed-format.ts';
import { resignAt } from '../publish/fresh.ts';
import { pointerKey } from '../targets/layout.ts';
import { FollowError, within, type Source } from './fetch.ts';
import { nameOf, readSigned, type Signed } from './read.ts';
import type { FollowState } from './state.ts';

type Held = FollowState['facilities'][string];

/** What the state keeps of a tombstone the mirror holds. */
export function heldTombstone(t: Tombstone): Held {
  const renewAt = new Date(resignAt(t.generated_at, t.expires_at)).toISOString();
  return { version: t.version, digest: null, renew_at: renewAt, kid: t.kid };
}

/**
 * The held tombstones to look at again: past half their validity (when the publisher signs them again), signed by a
 * kid other than the one signing now (a rotation signs them again at once), or held without either recorded.
 */
export function tombstonesDue(
  held: ReadonlyMap<string, Held>,
  taken: ReadonlySet<string>,
  currentKid: string | undefined,
  now: Date,
): string[] {
  return [...held]
    .filter(([id, h]) => h.digest === null && !taken.has(id))
    .filter(([, h]) => !h.renew_at || Date.parse(h.renew_at) <= now.getTime() || h.kid !== currentKid)
    .map(([id]) => id)
    .sort();
}

/**
 * The facility's tombstone signed again since the mirror's version, read from its immutable version; the pointer only
 * names that version. Undefined when there is none yet, or when the pointer holds no tombstone (the facility is
 * published again, and the feed and the index bring it).
 */
export function renewedTombstone(
  source: Source,
  keys: string,
  id: string,
  heldVersion: number,
  now: Date,
): Promise<Signed<Tombstone> | undefined> {
  return newestTombstone(source, keys, id, heldVersion + 1, now);
}

/**
 * The tombstone the facility's pointer names, when it is one at `minVersion` or above: read from its immutable version,
 * verified, of this facility and not expired. Undefined when the pointer is missing, is no tombstone, or names an older
 * version (not signed again yet, or a stale cached copy).
 */
export async function newestTombstone(
  source: Source,
  keys: string,
  id: string,
  minVersion: number,
  now: Date,
): Promise<Signed<Tombstone> | undefined> {
  const pointer = await source.get(within(source.base, pointerKey(id), pointerKey(id)));
  if (pointer.status !== 200) return undefined;
  const version = versionOfTombstone(pointer.bytes);
  if (version === undefined || version < minVersion) return undefined;
  return tombstoneAt(source, keys, id, version, now, pointerKey(id));
}

/** The tombstone at `<id>/v<version>/`, which `namedBy` names: verified, of this facility and version, not expired. */
export async function tombstoneAt(
  source: Source,
  keys: string,
  id: string,
  version: number,
  now: Date,
  namedBy: string,
): Promise<Signed<Tombstone>> {
  const url = within(source.base, `${id}/v${version}/listings.json`, namedBy);
  const name = nameOf(source, url);
  const t = await readSigned(source, url, keys, Tombstone, { now, expires: true });
  if (!t) throw new FollowError(name, `not found, and ${namedBy} names it`);
  if (t.doc.facility !== id || t.doc.version !== version)
    throw new FollowError(name, `is the tombstone of ${t.doc.facility} v${t.doc.version}, not ${id} v${version}`);
  return t;
}

/** What a start-over makes of the facilities the mirror holds and the index does not list. */
export interface Unlisted {
  /** Tombstones newer than the mirror's: the target withdrew the facility, or signed its tombstone again. */
  taken: Signed<Tombstone>[];
  /** Neither listed nor withdrawn on the target. */
  removed: string[];
}

/**
 * The index lists no withdrawn facility, so starting over from it cannot tell a withdrawn facility from one gone from
 * the target; its pointer can. One whose pointer serves a valid tombstone stays, in that tombstone when it is newer
 * (a held tombstone at least as new is kept as it is).
 */
export async function unlistedOnTarget(
  source: Source,
  keys: string,
  held: ReadonlyMap<string, Held>,
  listed: ReadonlySet<string>,
  now: Date,
): Promise<Unlisted> {
  const result: Unlisted = { taken: [], removed: [] };
  for (const [id, h] of held) {
    if (listed.has(id)) continue;
    const t = await newestTombstone(source, keys, id, 1, now);
    if (!t) result.removed.push(id);
    else if (t.doc.version > h.version) result.taken.push(t);
    else if (h.digest !== null)
      throw new FollowError(
        pointerKey(id),
        `names tombstone v${t.doc.version}, not above the mirror's listed v${h.version}: rollback`,
      );
  }
  return result;
}

function versionOfTombstone(bytes: Buffer): number | undefined {
  try {
    const parsed = Tombstone.safeParse(JSON.parse(bytes.toString('utf8')));
    return parsed.success ? parsed.data.version : undefined;
  } catch {
    return undefined;
  }
}
