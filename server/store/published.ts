// The local record of what each publish target holds: per facility the last version put there, per kid until when it is needed.
import type { Db } from './db.ts';
import {
  publishedOf,
  publishedValues,
  upsertPublished,
  type Published,
  type PublishedRow,
  type PublishedValues,
} from './published-rows.ts';
import { statementsFor } from './statements.ts';

export type { Published };

const stmts = statementsFor((db) => ({
  all: db.prepare<
    [string],
    PublishedRow
  >(`SELECT facility_id, revision, public_url, version, content_digest, kid, generated_at, expires_at
    FROM snapshot_published WHERE target = ?`),
  upsert: db.prepare<PublishedValues>(upsertPublished(() => '?')),
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
      .map((r) => [r.facility_id, publishedOf(r)]),
  );
}

/** Records many facilities in one transaction; a row never goes back to a lower version. */
export function recordPublished(db: Db, target: string, published: readonly Published[]): void {
  if (published.length === 0) return;
  const s = stmts(db);
  db.transaction(() => {
    for (const p of published) {
      s.upsert.run(...publishedValues(target, p));
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
