// Facilities, listings, photos and pricing rules: the import transaction and the reads answers are built from.
import { createHash } from 'node:crypto';
import type { ImportFile } from '../schemas/import.ts';
import type { PricingRule } from '../domain/pricing.ts';
import type { Db } from './db.ts';
import { statementsFor } from './statements.ts';

export interface FacilityRow {
  id: string;
  name: string;
  currency: string;
  rental_page_url: string | null;
  imported_at: string;
}

export interface ListingRow {
  id: string;
  facility_id: string;
  code: string;
  position: number;
  active: number;
  title: string;
  area_m2: number;
  width_m: number;
  depth_m: number;
  height_m: number | null;
  description: string;
  price_gross: number;
  price_period: string;
  vat_rate: number;
  dynamic_pricing: number;
  total_units: number;
  free_units: number;
  min_rental_period: string;
  notice_period: string;
  deposit: number;
}

export interface PhotoRow {
  listing_id: string;
  position: number;
  url: string;
  caption: string;
  width: number | null;
  height: number | null;
}

/** Everything the answers need about one facility, read in one go. */
export interface FacilityData {
  facility: FacilityRow;
  pricing_rules: PricingRule[];
  listings: (ListingRow & { photos: PhotoRow[] })[];
}

/** Same facility and code always give the same id, across imports and across databases. */
export function listingIdOf(facilityId: string, code: string): string {
  return 'lst_' + createHash('sha256').update(`${facilityId}\0${code}`).digest('hex').slice(0, 20);
}

export interface ImportSummary {
  facilities: number;
  listings: number;
  deactivated: number;
}

const stmts = statementsFor((db) => ({
  upsertFacility: db.prepare(`INSERT INTO facilities (id, name, currency, rental_page_url, imported_at)
    VALUES (@id, @name, @currency, @rental_page_url, @imported_at)
    ON CONFLICT (id) DO UPDATE SET name = excluded.name, currency = excluded.currency,
      rental_page_url = excluded.rental_page_url, imported_at = excluded.imported_at`),
  deleteRules: db.prepare('DELETE FROM pricing_rules WHERE facility_id = ?'),
  insertRule: db.prepare('INSERT INTO pricing_rules (facility_id, min_occupancy, adjust_pct) VALUES (?, ?, ?)'),
  activeIds: db.prepare<[string], { id: string }>('SELECT id FROM listings WHERE facility_id = ? AND active = 1'),
  deactivate: db.prepare('UPDATE listings SET active = 0 WHERE id = ?'),
  upsertListing: db.prepare(`INSERT INTO listings (id, facility_id, code, position, active, title, area_m2, width_m, depth_m,
      height_m, description, price_gross, price_period, vat_rate, dynamic_pricing, total_units, free_units,
      min_rental_period, notice_period, deposit)
    VALUES (@id, @facility_id, @code, @position, @active, @title, @area_m2, @width_m, @depth_m, @height_m, @description,
      @price_gross, @price_period, @vat_rate, @dynamic_pricing, @total_units, @free_units, @min_rental_period,
      @notice_period, @deposit)
    ON CONFLICT (id) DO UPDATE SET position = excluded.position, active = excluded.active, title = excluded.title,
      area_m2 = excluded.area_m2, width_m = excluded.width_m, depth_m = excluded.depth_m, height_m = excluded.height_m,
      description = excluded.description, price_gross = excluded.price_gross, price_period = excluded.price_period,
      vat_rate = excluded.vat_rate, dynamic_pricing = excluded.dynamic_pricing, total_units = excluded.total_units,
      free_units = excluded.free_units, min_rental_period = excluded.min_rental_period,
      notice_period = excluded.notice_period, deposit = excluded.deposit`),
  deletePhotos: db.prepare('DELETE FROM photos WHERE listing_id = ?'),
  insertPhoto: db.prepare('INSERT INTO photos (listing_id, position, url, caption, width, height) VALUES (?, ?, ?, ?, ?, ?)'),
  facility: db.prepare<[string], FacilityRow>('SELECT * FROM facilities WHERE id = ?'),
  facilities: db.prepare<[], FacilityRow & { active_listings: number; listings: number }>(`SELECT f.*,
      (SELECT count(*) FROM listings l WHERE l.facility_id = f.id AND l.active = 1) AS active_listings,
      (SELECT count(*) FROM listings l WHERE l.facility_id = f.id) AS listings
    FROM facilities f ORDER BY f.id`),
  rules: db.prepare<[string], PricingRule>('SELECT min_occupancy, adjust_pct FROM pricing_rules WHERE facility_id = ? ORDER BY min_occupancy'),
  activeListings: db.prepare<[string], ListingRow>('SELECT * FROM listings WHERE facility_id = ? AND active = 1 ORDER BY position'),
  activePhotos: db.prepare<[string], PhotoRow>(`SELECT p.* FROM photos p JOIN listings l ON l.id = p.listing_id
    WHERE l.facility_id = ? AND l.active = 1 ORDER BY p.listing_id, p.position`),
}));

/** Applies a validated import file in one transaction: all of it or nothing. */
export function applyImport(db: Db, file: ImportFile, now = new Date()): ImportSummary {
  const s = stmts(db);
  const importedAt = now.toISOString();
  const run = db.transaction((): ImportSummary => {
    let listings = 0;
    let deactivated = 0;
    for (const f of file.facilities) {
      s.upsertFacility.run({ id: f.id, name: f.name, currency: f.currency, rental_page_url: f.rental_page_url ?? null, imported_at: importedAt });
      s.deleteRules.run(f.id);
      for (const r of f.pricing_rules) s.insertRule.run(f.id, r.min_occupancy, r.adjust_pct);
      const stillActive = new Set(s.activeIds.all(f.id).map((r) => r.id));
      f.listings.forEach((l, position) => {
        const id = listingIdOf(f.id, l.code);
        stillActive.delete(id);
        s.upsertListing.run({
          id, facility_id: f.id, code: l.code, position, active: l.active ? 1 : 0, title: l.title, area_m2: l.area_m2,
          width_m: l.dimensions.width_m, depth_m: l.dimensions.depth_m, height_m: l.dimensions.height_m ?? null,
          description: l.description, price_gross: l.price_gross, price_period: l.price_period, vat_rate: l.vat_rate,
          dynamic_pricing: l.dynamic_pricing ? 1 : 0, total_units: l.total_units, free_units: l.free_units,
          min_rental_period: l.min_rental_period, notice_period: l.notice_period, deposit: l.deposit,
        });
        s.deletePhotos.run(id);
        l.photos.forEach((p, i) => s.insertPhoto.run(id, i, p.url, p.caption, p.width ?? null, p.height ?? null));
        if (l.active) listings++;
      });
      for (const id of stillActive) s.deactivate.run(id);
      deactivated += stillActive.size;
    }
    return { facilities: file.facilities.length, listings, deactivated };
  });
  return run.immediate();
}

export function facilityById(db: Db, id: string): FacilityRow | undefined {
  return stmts(db).facility.get(id);
}

export function listFacilities(db: Db) {
  return stmts(db).facilities.all();
}

/** The facility with its rules and active listings (in import order) and their photos; undefined if unknown. */
export function facilityData(db: Db, id: string): FacilityData | undefined {
  const s = stmts(db);
  const facility = s.facility.get(id);
  if (!facility) return undefined;
  const photos = new Map<string, PhotoRow[]>();
  for (const p of s.activePhotos.all(id)) {
    const list = photos.get(p.listing_id);
    if (list) list.push(p);
    else photos.set(p.listing_id, [p]);
  }
  return {
    facility,
    pricing_rules: s.rules.all(id),
    listings: s.activeListings.all(id).map((l) => ({ ...l, photos: photos.get(l.id) ?? [] })),
  };
}
