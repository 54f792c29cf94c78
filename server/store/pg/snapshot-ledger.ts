// The snapshot ledger on PostgreSQL: facilities read from a mirror brought up to date per publish, versions and what
// each target holds kept in the shared database, so that publishers on any machine never reuse a version.
import type { SnapshotLedger } from '../ledger.ts';
import { publishedOf, publishedValues, upsertPublished, type PublishedRow } from '../published-rows.ts';
import type { Reserved } from '../snapshot-versions.ts';
import { inTransaction, pgFailure, type Pool } from './connect.ts';
import type { Mirror } from './mirror.ts';

const RESERVE = `INSERT INTO snapshot_versions (target, facility_id, version, content_digest)
  VALUES ($1, $2, GREATEST(1, $3::integer), '')
  ON CONFLICT (target, facility_id) DO UPDATE SET version = GREATEST(snapshot_versions.version + 1, excluded.version)
  RETURNING version, content_digest`;
const PUBLISHED = upsertPublished((n) => `$${n}`);
// ISO 8601 UTC strings of one form compare as text (COLLATE "C": byte order, whatever the database's collation).
const KID_UNTIL = `INSERT INTO snapshot_kids (target, kid, expires_at) VALUES ($1, $2, $3)
  ON CONFLICT (target, kid) DO UPDATE SET expires_at = GREATEST(snapshot_kids.expires_at COLLATE "C", excluded.expires_at COLLATE "C")`;

/** location: the database's URL, for one-line failures (a watch retries those; anything else ends it). */
export function pgLedger(pool: Pool, mirror: Mirror, location: string): SnapshotLedger {
  const ledger: SnapshotLedger = {
    db: mirror.db,
    refresh: async () => {
      await mirror.sync();
      return mirror.syncedVersion;
    },
    async publishedOn(target) {
      const { rows } = await pool.query<PublishedRow>('SELECT * FROM snapshot_published WHERE target = $1', [target]);
      return new Map(rows.map((r) => [r.facility_id, publishedOf(r)]));
    },
    async recordPublished(target, published) {
      if (published.length === 0) return;
      await inTransaction(pool, async (c) => {
        for (const p of published) {
          await c.query(PUBLISHED, publishedValues(target, p));
          await c.query(KID_UNTIL, [target, p.kid, p.expiresAt]);
        }
      });
    },
    async kidsNeededOn(target) {
      const { rows } = await pool.query<{ kid: string; expires_at: string }>(
        'SELECT kid, expires_at FROM snapshot_kids WHERE target = $1',
        [target],
      );
      return new Map(rows.map((r) => [r.kid, r.expires_at]));
    },
    reserveVersions: (target, ids, floors) =>
      inTransaction(pool, async (c) => {
        const out = new Map<string, Reserved>();
        for (const id of ids) {
          const { rows } = await c.query<{ version: number; content_digest: string }>(RESERVE, [
            target,
            id,
            floors?.get(id) ?? 1,
          ]);
          out.set(id, { version: rows[0]!.version, previousDigest: rows[0]!.content_digest });
        }
        return out;
      }),
    async recordWritten(target, written) {
      await inTransaction(pool, async (c) => {
        for (const w of written)
          await c.query(
            'UPDATE snapshot_versions SET content_digest = $1 WHERE target = $2 AND facility_id = $3 AND version = $4',
            [w.contentDigest, target, w.id, w.version],
          );
      });
    },
  };
  const said =
    <A extends unknown[], T>(fn: (...args: A) => Promise<T>) =>
    async (...args: A): Promise<T> => {
      try {
        return await fn(...args);
      } catch (err) {
        throw pgFailure(err, location);
      }
    };
  return {
    db: ledger.db,
    refresh: said(ledger.refresh),
    publishedOn: said(ledger.publishedOn),
    recordPublished: said(ledger.recordPublished),
    kidsNeededOn: said(ledger.kidsNeededOn),
    reserveVersions: said(ledger.reserveVersions),
    recordWritten: said(ledger.recordWritten),
  };
}
