// `facilities list` on PostgreSQL: the same lines as SQLite's, in the same (byte) order.
import type { FacilityCount } from '../facilities.ts';
import type { Pool } from './connect.ts';

export async function listFacilitiesPg(pool: Pool): Promise<FacilityCount[]> {
  const { rows } = await pool.query<FacilityCount>(`SELECT f.id, f.name, f.currency, f.rental_page_url, f.imported_at,
      (SELECT count(*)::int FROM listings l WHERE l.facility_id = f.id AND l.active = 1) AS active_listings,
      (SELECT count(*)::int FROM listings l WHERE l.facility_id = f.id) AS listings
    FROM facilities f ORDER BY f.id COLLATE "C"`);
  return rows;
}
