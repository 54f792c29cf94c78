// Reads the webhook code needs on either database: a facility's data as the domain takes it, and which facilities have
// an endpoint listening.
import type { FacilityData, Photo } from '../domain/facility.ts';
import type { PricingRule } from '../../shared/pricing.ts';
import { FACILITY_COLUMNS, facilityOf, LISTING_COLUMNS, listingOf, type FacilityRow, type ListingRow } from './rows.ts';
import { sql, type Steps } from './steps.ts';

/** Endpoints that receive events: not disabled, and their key not revoked. */
export const LIVE_ENDPOINTS = `SELECT e.* FROM webhook_endpoints e JOIN api_keys k ON k.id = e.key_id
  WHERE e.disabled_at IS NULL AND k.revoked_at IS NULL`;

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
  const rows = yield sql(`SELECT DISTINCT facility_id FROM (${LIVE_ENDPOINTS}) w`);
  const wanted = new Set(ids);
  return rows.map((r) => r.facility_id as string).filter((id) => wanted.has(id));
}

/** Every live endpoint's promotions text, per facility: what the promotion clock looks through for boundaries. */
export function* watchedPromotions(): Steps<{ facility_id: string; promotions: string }[]> {
  // Stored as JSON.stringify writes it: a promotion with a start or an end holds `_at":"`; open-ended ones are skipped.
  const rows = yield sql(`SELECT l.facility_id, l.promotions FROM listings l
    WHERE l.active = 1 AND l.promotions LIKE '%_at":"%'
      AND l.facility_id IN (SELECT facility_id FROM (${LIVE_ENDPOINTS}) w)`);
  return rows as { facility_id: string; promotions: string }[];
}
