// The local record of what each publish target holds: per facility the last version put there, per kid until when it is needed.
import type { Db } from './db.ts';
import { statementsFor } from './statements.ts';

export interface Published {
  facilityId: string;
  /** The facility's revision and the public URL its Details were made with. */
  revision: number;
  publicUrl: string;
  version: number;
  contentDigest: string;
  kid: string;
  generatedAt: string;
  expiresAt: string;
}

interface PublishedRow {
  facility_id: string;
  revision: number;
  public_url: string;
  version: number;
  content_digest: string;
  kid: string;
  generated_at: string;
  expires_at: string;
}

const stmts = statementsFor((db) => ({
  all: db.prepare<
    [string],
    PublishedRow
  >(`SELECT facility_id, revision, public_url, version, content_digest, kid, generated_at, expires_at
    FROM snapshot_published WHERE target = ?`),
  upsert: db.prepare<
    [string, string, number, string, number, string, string, string, string]
  >(`INSERT INTO snapshot_published
      (target, facility_id, revision, public_url, version, content_digest, kid, generated_at, expires_at)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
    ON CONFLICT (target, facility_id) DO UPDATE SET revision = excluded.revision, public_url = excluded.public_url,
      version = excluded.version, content_digest = excluded.content_digest,
      kid = excluded.kid, generated_at = excluded.generated_at, expires_at = excluded.expires_at
    WHERE excluded.version >= snapshot_published.version`),
  kids: db.prepare<[string], { kid: string; expires_at: string }>(
    'SELECT kid, expires_at FROM snapshot_kids WHERE target = ?',
  ),
  // ISO 8601 UTC strings of one form compare as text.
  kidUntil: db.prepare<[string, string, string]>(`INSERT INTO snapshot_kids (target, kid, expires_at) VALUES (?, ?, ?)
    ON CONFLICT (target, kid) DO UPDATE SET expires_at = max(expires_at, excluded.expires_at)`),
}));

export function publishedOn(db: Db, target: string): Map<string, Published> {
  return new Map(
    stmts(db)
      .all.all(target)
      .map((r) => [
        r.facility_id,
        {
          facilityId: r.facility_id,
          revision: r.revision,
          publicUrl: r.public_url,
          version: r.version,
          contentDigest: r.content_digest,
          kid: r.kid,
          generatedAt: r.generated_at,
          expiresAt: r.expires_at,
        },
      ]),
  );
}

/** Records many facilities in one transaction; a row never goes back to a lower version. */
export function recordPublished(db: Db, target: string, published: readonly Published[]): void {
  if (published.length === 0) return;
  const s = stmts(db);
  db.transaction(() => {
    for (const p of published) {
      s.upsert.run(
        target,
        p.facilityId,
        p.revision,
        p.publicUrl,
        p.version,
        p.contentDigest,
        p.kid,
        p.generatedAt,
        p.expiresAt,
      );
      s.kidUntil.run(target, p.kid, p.expiresAt);
    }
  })();
}

/** Until when each kid that signed something on the target is needed: the latest expires_at it signed. */
export function kidsNeededOn(db: Db, target: string): Map<string, string> {
  return new Map(
    stmts(db)
      .kids.all(target)
      .map((r) => [r.kid, r.expires_at]),
  );
}
