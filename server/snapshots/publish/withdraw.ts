// `snapshot withdraw`: a signed tombstone in place of a facility's pointer, a `withdrawn` feed item, and out of index.json.
import { ListingsError } from '../../errors.ts';
import { publishAudit, type PublishAudit } from '../../store/audit.ts';
import type { Db } from '../../store/db.ts';
import type { SigningKey } from '../format/keygen.ts';
import { ledgerOf, type SnapshotLedger } from '../../store/ledger.ts';
import { writeIndexAndFeed } from './feed.ts';
import { planKeys, writeKeys } from './keys.ts';
import { readPointer, WITHDRAWN } from './pointer.ts';
import { isFacilityId } from './publish.ts';
import { writeTombstone } from './tombstone.ts';
import type { Target } from '../targets/target.ts';

export interface WithdrawOptions {
  target: Target;
  key: SigningKey;
  facilityId: string;
  ttlSeconds: number;
  now?: Date;
  audit?: PublishAudit;
}

export interface WithdrawSummary {
  target: string;
  facility: string;
  version: number;
  withdrawn_at: string;
  expires_at: string;
  /** false when the facility was withdrawn already: its tombstone is signed again, and the feed gets no second item. */
  first: boolean;
  feed_items: number;
}

/**
 * Works from what the target holds, not the database: the usual case is a facility the operator removed from the
 * import, whose last snapshot would otherwise stay listed until it expires.
 */
export async function withdrawFacility(source: Db | SnapshotLedger, opts: WithdrawOptions): Promise<WithdrawSummary> {
  const { target, key, facilityId: id } = opts;
  if (!isFacilityId(id))
    throw new ListingsError('invalid_facility', `"${id}" is not a facility id (1-64 characters of a-z, 0-9 or "-")`);
  const ledger = ledgerOf(source);
  await ledger.refresh();
  const now = opts.now ?? new Date();
  const generatedAt = new Date(Math.floor(now.getTime() / 1000) * 1000);
  const expiresAt = new Date(generatedAt.getTime() + opts.ttlSeconds * 1000);
  const unlock = await target.lock();
  try {
    const pointer = await readPointer(target, id);
    if (!pointer)
      throw new ListingsError(
        'not_published',
        `facility "${id}" has no snapshot on ${target.label}: nothing to withdraw (publish it first, or check --to)`,
      );
    const first = pointer.contentDigest !== WITHDRAWN;
    await writeKeys(target, await planKeys(ledger, target, key, now));
    const tombstone = await writeTombstone(target, ledger, key, id, pointer, { generatedAt, expiresAt });
    const { version, withdrawn_at: withdrawnAt } = tombstone;
    await opts.audit?.to.appendAudit([
      publishAudit(
        opts.audit.actor,
        { facilityId: id, version, target: target.label, kid: key.kid },
        'snapshot.withdraw',
      ),
    ]);
    const feed = await writeIndexAndFeed(target, ledger, key, {
      records: await ledger.publishedOn(target.recordKey),
      written: new Map(),
      withdrawn: first ? new Map([[id, version]]) : new Map(),
      generatedAt,
      expiresAt,
      always: true,
    });
    return {
      target: target.label,
      facility: id,
      version,
      withdrawn_at: withdrawnAt,
      expires_at: tombstone.expires_at,
      first,
      feed_items: feed?.items.length ?? 0,
    };
  } finally {
    await unlock();
  }
}
