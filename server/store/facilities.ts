// Facilities, listings, photos and pricing rules: the import transaction, and the reads answers are built from (as domain objects).
import { listingIdOf, type Facility, type FacilityData, type Listing, type Photo } from '../domain/facility.ts';
import type { ImportFile } from '../schemas/import.ts';
import type { PricingRule } from '../../shared/pricing.ts';
import type { Db } from './db.ts';
import { statementsFor } from './statements.ts';

// Rows as SQLite gives them (0/1 for booleans); nothing above the store sees them: it gets domain objects.
type FacilityRow = Facility;

type ListingRow = Omit<Listing, 'dynamic_pricing' | 'photos'> & { dynamic_pricing: number };

interface PhotoRow extends Photo {
  listing_id: string;
}

/** A line of `facilities list`. */
export interface FacilityCount {
  id: string;
  name: string;
  currency: string;
  rental_page_url: string | null;
  imported_at: string;
  active_listings: number;
  listings: number;
}

const LISTING_COLUMNS = `id, code, title, area_m2, width_m, depth_m, height_m, description, price_gross, price_period, vat_rate,
  dynamic_pricing, total_units, free_units, min_rental_period, notice_period, deposit`;

export interface ImportSummary {
  facilities: number;
  listings: number;
  deactivated: number;
}

const stmts = statementsFor((db) => ({
  // The revision rises with every import of the facility: a publisher that saw revision N has nothing to re-read.
  upsertFacility:
    db.prepare(`INSERT INTO facilities (id, name, currency, rental_page_url, booking_url, contact_email, contact_phone, imported_at, revision)
    VALUES (@id, @name, @currency, @rental_page_url, @booking_url, @contact_email, @contact_phone, @imported_at, 1)
    ON CONFLICT (id) DO UPDATE SET name = excluded.name, currency = excluded.currency,
      rental_page_url = excluded.rental_page_url, booking_url = excluded.booking_url, contact_email = excluded.contact_email,
      contact_phone = excluded.contact_phone, imported_at = excluded.imported_at, revision = revision + 1`),
  revisions: db.prepare<[], { id: string; revision: number }>('SELECT id, revision FROM facilities'),
  revision: db.prepare<[string], number>('SELECT revision FROM facilities WHERE id = ?').pluck(),
  deleteRules: db.prepare('DELETE FROM pricing_rules WHERE facility_id = ?'),
  insertRule: db.prepare('INSERT INTO pricing_rules (facility_id, min_occupancy, adjust_pct) VALUES (?, ?, ?)'),
  activeIds: db.prepare<[string], { id: string }>('SELECT id FROM listings WHERE facility_id = ? AND active = 1'),
  deactivate: db.prepare('UPDATE listings SET active = 0 WHERE id = ?'),
  upsertListing:
    db.prepare(`INSERT INTO listings (id, facility_id, code, position, active, title, area_m2, width_m, depth_m,
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
  insertPhoto: db.prepare(
    'INSERT INTO photos (listing_id, position, url, caption, width, height) VALUES (?, ?, ?, ?, ?, ?)',
  ),
  facility: db.prepare<[string], FacilityRow>(
    'SELECT id, name, currency, rental_page_url, booking_url, contact_email, contact_phone FROM facilities WHERE id = ?',
  ),
  facilities: db.prepare<[], FacilityCount>(`SELECT f.id, f.name, f.currency, f.rental_page_url, f.imported_at,
      (SELECT count(*) FROM listings l WHERE l.facility_id = f.id AND l.active = 1) AS active_listings,
      (SELECT count(*) FROM listings l WHERE l.facility_id = f.id) AS listings
    FROM facilities f ORDER BY f.id`),
  rules: db.prepare<[string], PricingRule>(
    'SELECT min_occupancy, adjust_pct FROM pricing_rules WHERE facility_id = ? ORDER BY min_occupancy',
  ),
  activeListings: db.prepare<[string], ListingRow>(
    `SELECT ${LISTING_COLUMNS} FROM listings WHERE facility_id = ? AND active = 1 ORDER BY position`,
  ),
  activeListing: db.prepare<[string, string], ListingRow>(
    `SELECT ${LISTING_COLUMNS} FROM listings WHERE facility_id = ? AND code = ? AND active = 1`,
  ),
  photosOf: db.prepare<[string], Photo>(
    'SELECT url, caption, width, height FROM photos WHERE listing_id = ? ORDER BY position',
  ),
  activePhotos: db.prepare<
    [string],
    PhotoRow
  >(`SELECT p.listing_id, p.url, p.caption, p.width, p.height FROM photos p JOIN listings l ON l.id = p.listing_id
    WHERE l.facility_id = ? AND l.active = 1 ORDER BY p.listing_id, p.position`),
}));

/** A facility of an import file as its row (both stores write it). */
export function facilityRowOf(f: ImportFile['facilities'][number], importedAt: string) {
  return {
    id: f.id,
    name: f.name,
    currency: f.currency,
    rental_page_url: f.rental_page_url ?? null,
    booking_url: f.booking_url ?? null,
    contact_email: f.contact?.email ?? null,
    contact_phone: f.contact?.phone ?? null,
    imported_at: importedAt,
  };
}

/** A listing of an import file as its row, 0/1 for booleans (both stores write it). */
export function listingRowOf(
  facilityId: string,
  l: ImportFile['facilities'][number]['listings'][number],
  position: number,
) {
  return {
    id: listingIdOf(facilityId, l.code),
    facility_id: facilityId,
    code: l.code,
    position,
    active: l.active ? 1 : 0,
    title: l.title,
    area_m2: l.area_m2,
    width_m: l.dimensions.width_m,
    depth_m: l.dimensions.depth_m,
    height_m: l.dimensions.height_m ?? null,
    description: l.description,
    price_gross: l.price_gross,
    price_period: l.price_period,
    vat_rate: l.vat_rate,
    dynamic_pricing: l.dynamic_pricing ? 1 : 0,
    total_units: l.total_units,
    free_units: l.free_units,
    min_rental_period: l.min_rental_period,
    notice_period: l.notice_period,
    deposit: l.deposit,
  };
}

/** Applies a validated import file in one transaction: all of it or nothing. */
export function applyImport(db: Db, file: ImportFile, now = new Date()): ImportSummary {
  const s = stmts(db);
  const importedAt = now.toISOString();
  const run = db.transaction((): ImportSummary => {
    let listings = 0;
    let deactivated = 0;
    for (const f of file.facilities) {
      s.upsertFacility.run(facilityRowOf(f, importedAt));
      s.deleteRules.run(f.id);
      for (const r of f.pricing_rules) s.insertRule.run(f.id, r.min_occupancy, r.adjust_pct);
      const stillActive = new Set(s.activeIds.all(f.id).map((r) => r.id));
      f.listings.forEach((l, position) => {
        const row = listingRowOf(f.id, l, position);
        stillActive.delete(row.id);
        s.upsertListing.run(row);
        s.deletePhotos.run(row.id);
        l.photos.forEach((p, i) => s.insertPhoto.run(row.id, i, p.url, p.caption, p.width ?? null, p.height ?? null));
        if (l.active) listings++;
      });
      for (const id of stillActive) s.deactivate.run(id);
      deactivated += stillActive.size;
    }
    return { facilities: file.facilities.length, listings, deactivated };
  });
  return run.immediate();
}

export function facilityById(db: Db, id: string): Facility | undefined {
  return stmts(db).facility.get(id);
}

/** Every facility's revision, in one read. */
export function facilityRevisions(db: Db): Map<string, number> {
  return new Map(
    stmts(db)
      .revisions.all()
      .map((r) => [r.id, r.revision]),
  );
}

export function listFacilities(db: Db): FacilityCount[] {
  return stmts(db).facilities.all();
}

/** The facility with its rules and active listings (in import order) and their photos; undefined if unknown. */
export function facilityData(db: Db, id: string): FacilityData | undefined {
  const s = stmts(db);
  const facility = s.facility.get(id);
  if (!facility) return undefined;
  const photos = new Map<string, Photo[]>();
  for (const { listing_id, ...photo } of s.activePhotos.all(id)) {
    const list = photos.get(listing_id);
    if (list) list.push(photo);
    else photos.set(listing_id, [photo]);
  }
  return {
    facility,
    pricing_rules: s.rules.all(id),
    listings: s.activeListings.all(id).map((row) => listingOf(row, photos.get(row.id) ?? [])),
  };
}

/**
 * A listing row as a domain listing. One literal rather than a spread of the row: rows whose columns mix null and values
 * each got a hidden class of their own from the spread, and building a large facility's views read every field
 * megamorphically.
 */
function listingOf(row: ListingRow, photos: Photo[]): Listing {
  return {
    id: row.id,
    code: row.code,
    title: row.title,
    area_m2: row.area_m2,
    width_m: row.width_m,
    depth_m: row.depth_m,
    height_m: row.height_m,
    description: row.description,
    price_gross: row.price_gross,
    price_period: row.price_period,
    vat_rate: row.vat_rate,
    dynamic_pricing: row.dynamic_pricing === 1,
    total_units: row.total_units,
    free_units: row.free_units,
    min_rental_period: row.min_rental_period,
    notice_period: row.notice_period,
    deposit: row.deposit,
    photos,
  };
}

/** The facility's data with its revision, read as of one moment (the reads share a transaction); undefined if unknown. */
export function revisedFacilityData(db: Db, id: string): { data: FacilityData; revision: number } | undefined {
  return db.transaction(() => {
    const data = facilityData(db, id);
    return data && { data, revision: stmts(db).revision.get(id)! };
  })();
}

/**
 * One active listing of the facility by its code, with its photos, the facility and its rules (pricing reads only the
 * listing's own occupancy, so a Detail of it equals the one made from the whole facility), and the facility's revision,
 * read as of one moment; undefined when either is not served.
 */
export function revisedListing(
  db: Db,
  facilityId: string,
  code: string,
): { data: FacilityData; revision: number } | undefined {
  return db.transaction(() => {
    const s = stmts(db);
    const facility = s.facility.get(facilityId);
    const row = facility && s.activeListing.get(facilityId, code);
    if (!row) return undefined;
    const data = {
      facility,
      pricing_rules: s.rules.all(facilityId),
      listings: [listingOf(row, s.photosOf.all(row.id))],
    };
    return { data, revision: s.revision.get(facilityId)! };
  })();
}
