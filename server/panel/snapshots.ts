// The Snapshots tab's data and its "publish now": the CLI's publish, for one facility, on the panel's configured target.
import type { SigningKey } from '../snapshots/format/keygen.ts';
import { WITHDRAWN } from '../snapshots/publish/pointer.ts';
import { publishSnapshots } from '../snapshots/publish/publish.ts';
import type { Target } from '../snapshots/targets/target.ts';
import type { AuditRow } from '../store/audit.ts';
import type { Published } from '../store/published.ts';
import type { Store } from '../store/store.ts';

export interface PanelSnapshots {
  target: Target;
  key: SigningKey;
  ttlSeconds: number;
}

export interface SnapshotState {
  target: string;
  /** The last version on the target, or undefined when none was published there. */
  published?: Published;
  /** When the facility was withdrawn from the target, when its last version there is a tombstone. */
  withdrawnAt?: string;
}

/** For the facilities named (a page of the list, or one), what the configured target holds; undefined without one. */
export async function snapshotStates(
  store: Store,
  snapshots: PanelSnapshots | undefined,
  facilityIds: readonly string[],
): Promise<Map<string, SnapshotState> | undefined> {
  if (!snapshots) return undefined;
  const ledger = store.snapshotLedger();
  await ledger.refresh();
  const held = await ledger.publishedOn(snapshots.target.recordKey);
  const target = snapshots.target.label;
  const states = new Map<string, SnapshotState>();
  for (const id of facilityIds) {
    const published = held.get(id);
    const withdrawn = published?.contentDigest === WITHDRAWN;
    states.set(id, {
      target,
      published,
      withdrawnAt: withdrawn ? await withdrawnAt(store, target, published) : undefined,
    });
  }
  return states;
}

/** How far back the audit log is read for a withdrawal: a tombstone is signed again about twice a TTL. */
const WITHDRAWAL_ROWS = 100;

/**
 * When a facility was withdrawn from the target: the oldest of the withdrawals since it was last published there (a
 * tombstone signed again is audited as one too), as the tombstone keeps its first `withdrawn_at`; the tombstone's own
 * date when the log has none (withdrawn from another database).
 */
async function withdrawnAt(store: Store, target: string, tombstone: Published): Promise<string> {
  const facilityId = tombstone.facilityId;
  const actions = ['snapshot.withdraw', 'snapshot.publish'] as const;
  const rows = await Promise.all(
    actions.map((action) => store.listAudit({ facilityId, action, limit: WITHDRAWAL_ROWS })),
  );
  let at = tombstone.generatedAt;
  for (const row of rows.flat().sort((a, b) => b.id - a.id)) {
    if (row.detail.target !== target) continue;
    if (row.action !== 'snapshot.withdraw') break;
    at = row.at;
  }
  return at;
}

/** Publishes one facility now, changed or not, as `snapshot publish` does; audited with the operator as actor. */
export async function publishNow(
  store: Store,
  snapshots: PanelSnapshots,
  publicUrl: string,
  facilityId: string,
  actor: string,
) {
  const ledger = store.snapshotLedger();
  await ledger.refresh();
  return publishSnapshots(ledger, {
    target: snapshots.target,
    key: snapshots.key,
    publicUrl,
    facilityIds: [facilityId],
    ttlSeconds: snapshots.ttlSeconds,
    force: true,
    audit: { actor, to: store },
  });
}

/** How many of a facility's snapshot rows the tab shows, newest first. */
export const SNAPSHOT_HISTORY = 10;

/**
 * What was exported, published or withdrawn for the facility, by the CLI or the panel, on any target: from the audit
 * log, which every one of them writes, so the tab shows them with no publish target configured here.
 */
export async function snapshotHistory(store: Store, facilityId: string): Promise<AuditRow[]> {
  // Each action's newest rows by the audit log's own filter: a facility's many other rows never crowd them out.
  const actions = ['snapshot.publish', 'snapshot.export', 'snapshot.withdraw'] as const;
  const rows = await Promise.all(
    actions.map((action) => store.listAudit({ facilityId, action, limit: SNAPSHOT_HISTORY })),
  );
  return rows
    .flat()
    .sort((a, b) => b.id - a.id)
    .slice(0, SNAPSHOT_HISTORY);
}
