// The snapshot counter of each facility on each target (table snapshot_versions): reserved before any file is written,
// so no version is ever reused there; a target's first version of a facility is 1.
import type { Db } from './db.ts';
import type { FacilityData } from '../domain/facility.ts';
import { facilityData } from './facilities.ts';
import { statementsFor } from './statements.ts';

const stmts = statementsFor((db) => ({
  // RETURNING gives the new version and the digest of the last snapshot written (left untouched here).
  // The floor lifts the counter past a version another machine already published to the same target.
  reserve: db.prepare<
    [string, string, number],
    { version: number; content_digest: string }
  >(`INSERT INTO snapshot_versions (target, facility_id, version, content_digest)
    VALUES (?, ?, max(1, ?), '')
    ON CONFLICT (target, facility_id) DO UPDATE SET version = max(version + 1, excluded.version)
    RETURNING version, content_digest`),
  written: db.prepare<[string, string, string, number]>(
    'UPDATE snapshot_versions SET content_digest = ? WHERE target = ? AND facility_id = ? AND version = ?',
  ),
}));

export interface Reserved {
  version: number;
  /** Digest of the content last written for this facility ('' when never written). */
  previousDigest: string;
}

/**
 * Takes the next version of every facility in one transaction. A version whose file is then never written (the
 * export dies) is simply skipped. `floors` gives a facility's lowest acceptable version (one above what a target holds): versions only have to grow, not be contiguous.
 */
export function reserveVersions(
  db: Db,
  target: string,
  facilityIds: readonly string[],
  floors?: ReadonlyMap<string, number>,
): Map<string, Reserved> {
  const s = stmts(db);
  return db
    .transaction(
      () =>
        new Map(
          facilityIds.map((id) => {
            const row = s.reserve.get(target, id, floors?.get(id) ?? 1)!;
            return [id, { version: row.version, previousDigest: row.content_digest }];
          }),
        ),
    )
    .immediate();
}

/** One facility's rows as of one moment, even while an import runs (the reads share a transaction). */
export function readFacility(db: Db, facilityId: string): FacilityData | undefined {
  return db.transaction(() => facilityData(db, facilityId))();
}

export interface Written {
  id: string;
  version: number;
  contentDigest: string;
}

/**
 * Records what was written (for the "unchanged" count of the next export), in one transaction for many facilities.
 * A digest is kept only if no later export has reserved a newer version meanwhile.
 */
export function recordWritten(db: Db, target: string, written: readonly Written[]): void {
  const s = stmts(db);
  db.transaction(() => {
    for (const w of written) s.written.run(w.contentDigest, target, w.id, w.version);
  })();
}
