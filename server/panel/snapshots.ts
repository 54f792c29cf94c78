// The Snapshots tab's data and its "publish now": the CLI's publish, for one facility, on the panel's configured target.
import type { SigningKey } from '../snapshots/format/keygen.ts';
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
  const states = new Map<string, SnapshotState>();
  for (const id of facilityIds) states.set(id, { target: snapshots.target.label, published: held.get(id) });
  return states;
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
