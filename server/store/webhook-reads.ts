// Reads the webhook code needs on either database: a facility's data as the domain takes it, and which facilities have
// an endpoint listening.
import type { FacilityData, Photo } from '../domain/facility.ts';
import type { PricingRule } from '../../shared/pricing.ts';
import { FACILITY_COLUMNS, facilityOf, LISTING_COLUMNS, listingOf, type FacilityRow, type ListingRow } from './rows.ts';
import { sql, type Steps } from './steps.ts';

/** Endpoint `e`'s key is in use (not revoked): a revoked key's endpoints receive nothing, queued events included. A
 * condition rather than a join, so that a claim on PostgreSQL locks the endpoint's row and not its key's. */
export const KEY_IN_USE = 'e.key_id IN (SELECT id FROM api_keys WHERE revoked_at IS NULL)';

/**
 * Endpoints events are queued for: those of keys in use, disabled ones too, so that what changed while one was disabled
 * goes out after `webhooks enable` (coalescing keeps one pending event per listing and endpoint).
 */
export const QUEUED_FOR = `SELECT e.* FROM webhook_endpoints e WHERE ${KEY_IN_USE}`;

/** The facility with its rules, active listings and photos; undefined if unknown. */
export function* facilityDataSteps(id: string): Steps<FacilityData | undefined> {
  const [row] = yield sql(`SELECT ${FACILITY_COLUMNS} FROM facilities WHERE id = $1`, id);
  if (!row) return undefined;
  const rules = yield sql(
    'SELECT min_occupancy, adjust_pct FROM pricing_rules WHERE facility_id = $1 ORDER BY min_occupancy',
    id,
  );
  const listings = yield sql(
    `SELECT ${LISTING_COLUMNS} FROM listings WHERE facility_id = $1 AND active = 1 ORDER BY position`,
    id,
  );
  const photoRows = yield sql(
    `SELECT p.listing_id, p.url, p.caption, p.width, p.height FROM photos p JOIN listings l ON l.id = p.listing_id
    WHERE l.facility_id = $1 AND l.active = 1 ORDER BY p.listing_id, p.position`,
    id,
  );
  const photos = new Map<string, Photo[]>();
  for (const { listing_id, ...photo } of photoRows) {
    const list = photos.get(listing_id as string) ?? [];
    list.push(photo as unknown as Photo);
    photos.set(listing_id as string, list);
  }
  return {
    facility: facilityOf(row as unknown as FacilityRow),
    pricing_rules: rules as unknown as PricingRule[],
    listings: (listings as unknown as ListingRow[]).map((l) => listingOf(l, photos.get(l.id) ?? [])),
  };
}

/** Of these facilities, those with an endpoint listening (one read, so an import without any pays nothing more). */
export function* watchedFacilities(ids: readonly string[]): Steps<string[]> {
  if (ids.length === 0) return [];
  const rows = yield sql(`SELECT DISTINCT facility_id FROM (${QUEUED_FOR}) w`);
  const wanted = new Set(ids);
  return rows.map((r) => r.facility_id as string).filter((id) => wanted.has(id));
}

/** The promotions text of every facility events are queued for: what the promotion clock looks through for boundaries. */
export function* watchedPromotions(): Steps<{ facility_id: string; promotions: string }[]> {
  // Stored as JSON.stringify writes it: a promotion with a start or an end holds `_at":"`; open-ended ones are skipped.
  const rows = yield sql(`SELECT l.facility_id, l.promotions FROM listings l
    WHERE l.active = 1 AND l.promotions LIKE '%_at":"%'
      AND l.facility_id IN (SELECT facility_id FROM (${QUEUED_FOR}) w)`);
  return rows as { facility_id: string; promotions: string }[];
}

/**
 * What moves when the promotions the clock looks through may have changed: an import of a watched facility (which raises
 * its revision), or an endpoint added, removed or stopped by its key's revoke. Cheap: endpoints joined to facilities.
 */
export function* watchedVersionSteps(): Steps<string> {
  const [r] = yield sql(`SELECT count(*) AS endpoints, sum(f.revision) AS revisions, max(w.created_at) AS latest
    FROM (${QUEUED_FOR}) w JOIN facilities f ON f.id = w.facility_id`);
  return `${r!.endpoints}/${r!.revisions}/${r!.latest}`;
}
