// A facility's tombstone written as its next version on a target: by `snapshot withdraw`, and again by a publish when
// half its TTL has passed (so a pinned widget keeps showing "no longer listed" rather than an expired file).
import { signedFile, Tombstone } from '../format/feed-format.ts';
import { isoSeconds } from '../format/format.ts';
import type { SigningKey } from '../format/keygen.ts';
import type { SnapshotLedger } from '../../store/ledger.ts';
import { WITHDRAWN, type Pointer } from './pointer.ts';
import { pointerKey, pointerMeta, signatureKey, versionKey, versionMeta } from '../targets/layout.ts';
import type { Target } from '../targets/target.ts';

/**
 * A facility's tombstone as its next version, signed now: the immutable pair first (a follower reads it there), then
 * the pointer, its listings.json last; then recorded as what the target holds. In place of a snapshot it withdraws the
 * facility; in place of a tombstone it signs it again, keeping when the facility was withdrawn; where the target lost
 * it (no pointer), it is written anew, dated now.
 */
export async function writeTombstone(
  target: Target,
  ledger: SnapshotLedger,
  key: SigningKey,
  id: string,
  pointer: Pointer | undefined,
  times: { generatedAt: Date; expiresAt: Date },
): Promise<Tombstone & { bytes: number }> {
  const floor = new Map([[id, (pointer?.version ?? 0) + 1]]);
  const version = (await ledger.reserveVersions(target.recordKey, [id], floor)).get(id)!.version;
  const renewed = pointer?.contentDigest === WITHDRAWN;
  const tombstone: Tombstone = {
    facility: id,
    state: 'withdrawn',
    version,
    withdrawn_at: renewed ? await withdrawnAtOf(target, id, times.generatedAt) : isoSeconds(times.generatedAt),
    generated_at: isoSeconds(times.generatedAt),
    expires_at: isoSeconds(times.expiresAt),
    kid: key.kid,
  };
  const file = signedFile(tombstone, key);
  const versioned = versionKey(id, version);
  await Promise.all([
    target.put(versioned, file.bytes, versionMeta),
    target.put(signatureKey(versioned), file.sig, versionMeta),
  ]);
  await target.put(signatureKey(pointerKey(id)), file.sig, pointerMeta);
  await target.put(pointerKey(id), file.bytes, pointerMeta);
  await ledger.recordPublished(target.recordKey, [
    {
      facilityId: id,
      revision: 0,
      publicUrl: '',
      version,
      contentDigest: WITHDRAWN,
      kid: key.kid,
      generatedAt: tombstone.generated_at,
      expiresAt: tombstone.expires_at,
    },
  ]);
  return { ...tombstone, bytes: 2 * (file.bytes.length + file.sig.length) };
}

/** A tombstone signed again keeps the moment the facility was first withdrawn. */
async function withdrawnAtOf(target: Target, id: string, fallback: Date): Promise<string> {
  try {
    const parsed = Tombstone.safeParse(JSON.parse((await target.get(pointerKey(id)))?.toString('utf8') ?? ''));
    if (parsed.success) return parsed.data.withdrawn_at;
  } catch {
    // not a tombstone we can read: the renewal is then dated now
  }
  return isoSeconds(fallback);
}
