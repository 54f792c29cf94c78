// The Listings tab's read: one page of a facility's listings (inactive ones included) as its filter and order choose
// them, without photos or descriptions, with the facility, its rules, and the counts its pager and status need.
import type { Facility, Listing } from '../domain/facility.ts';
import { compareCodes } from '../../shared/sort.ts';
import type { ListingFilter } from '../../shared/panel-listings.ts';
import type { PricingRule } from '../../shared/pricing.ts';
import type { Db } from './db.ts';
import { FACILITY_COLUMNS, facilityOf, LISTING_COLUMNS, listingOf, type FacilityRow, type ListingRow } from './rows.ts';
import { statementsFor } from './statements.ts';

export interface PanelListingQuery {
  filter: ListingFilter;
  limit: number;
  offset: number;
}

/** A listing as the tab shows it: no photos, no description; whether partners see it. */
export type PanelPageListing = Listing & { active: boolean };

export interface PanelListingPage {
  facility: Facility;
  pricing_rules: PricingRule[];
  /** Every listing of the facility, active or not. */
  total: number;
  /** The listings the filter shows, on every page (0 on a page past the end). */
  shown: number;
  /** The page, in the filter's order; ties (and no order) keep the active first, each in import order. */
  listings: PanelPageListing[];
}

/** The listing's columns but its description, which the tab never shows (and which may be long). */
const PAGE_COLUMNS = LISTING_COLUMNS.replace(/\bdescription\b/, 'NULL AS description');

/** Filter parameters: NULL for no bound; `active` 1 or 0. */
const WHERE = `facility_id = @id AND (@min IS NULL OR area_m2 >= @min) AND (@max IS NULL OR area_m2 <= @max)
  AND (@active IS NULL OR active = @active)`;

/**
 * The gross price priceOf gives, in SQL, to order by: the rule with the greatest min_occupancy not above the
 * occupancy, its percentage scaled to an integer as priceOf scales it, and the product rounded half away from zero
 * (prices and 100 + adjustments are positive, so adding half and dividing is that rounding).
 */
const PRICE = `CASE WHEN dynamic_pricing = 1 THEN (price_gross * (1000000 + CAST(round(coalesce((
    SELECT r.adjust_pct FROM pricing_rules r WHERE r.facility_id = listings.facility_id AND r.min_occupancy <=
      CASE WHEN total_units <= 0 THEN 0.0 ELSE CAST(total_units - free_units AS REAL) / total_units END
    ORDER BY r.min_occupancy DESC LIMIT 1), 0) * 10000) AS INTEGER)) + 500000) / 1000000
  ELSE price_gross END`;

const BASE_ORDER = 'active DESC, position';

/** The SQL orders; `code` is natural order, which SQL has not: it is ordered here, from the codes alone. */
const ORDERS = { none: '', price: `${PRICE},`, '-price': `${PRICE} DESC,`, area: 'area_m2,', '-area': 'area_m2 DESC,' };

type Row = ListingRow & { active: number; shown: number };
type Params = { id: string; min: number | null; max: number | null; active: number | null };

const stmts = statementsFor((db) => {
  const page = (order: string) =>
    db.prepare<[Params & { limit: number; offset: number }], Row>(
      `SELECT ${PAGE_COLUMNS}, active, count(*) OVER () AS shown FROM listings WHERE ${WHERE}
      ORDER BY ${order} ${BASE_ORDER} LIMIT @limit OFFSET @offset`,
    );
  return {
    facility: db.prepare<[string], FacilityRow>(`SELECT ${FACILITY_COLUMNS} FROM facilities WHERE id = ?`),
    rules: db.prepare<[string], PricingRule>(
      'SELECT min_occupancy, adjust_pct FROM pricing_rules WHERE facility_id = ? ORDER BY min_occupancy',
    ),
    total: db.prepare<[string], number>('SELECT count(*) FROM listings WHERE facility_id = ?').pluck(),
    pages: Object.fromEntries(Object.entries(ORDERS).map(([key, order]) => [key, page(order)])),
    shown: db.prepare<[Params], number>(`SELECT count(*) FROM listings WHERE ${WHERE}`).pluck(),
    codes: db.prepare<[Params], { id: string; code: string }>(
      `SELECT id, code FROM listings WHERE ${WHERE} ORDER BY ${BASE_ORDER}`,
    ),
    byIds: db.prepare<[{ ids: string }], Row>(
      `SELECT ${PAGE_COLUMNS}, active, 0 AS shown FROM listings WHERE id IN (SELECT value FROM json_each(@ids))`,
    ),
  };
});

const listingOfRow = (row: Row): PanelPageListing => ({ ...listingOf(row, []), active: row.active === 1 });

/** A page by code: the filtered listings' codes in natural order (two short columns each), then the page's rows. */
function pageByCode(db: Db, params: Params, limit: number, offset: number): { shown: number; rows: Row[] } {
  const s = stmts(db);
  const ordered = s.codes.all(params).sort((a, b) => compareCodes(a.code, b.code));
  const ids = ordered.slice(offset, offset + limit).map((r) => r.id);
  const rows = new Map(s.byIds.all({ ids: JSON.stringify(ids) }).map((r) => [r.id, r]));
  return { shown: ordered.length, rows: ids.map((id) => rows.get(id)!) };
}

/** A page in an order SQL has; past the end, no rows, and the count read apart. */
function pageBySql(db: Db, params: Params, query: PanelListingQuery): { shown: number; rows: Row[] } {
  const s = stmts(db);
  const { filter, limit, offset } = query;
  const rows = s.pages[filter.sort ?? 'none']!.all({ ...params, limit, offset });
  return { shown: rows[0]?.shown ?? (offset > 0 ? s.shown.get(params)! : 0), rows };
}

/** One page of the facility's listings as of one moment; undefined if the facility is unknown. */
export function panelListingPage(db: Db, id: string, query: PanelListingQuery): PanelListingPage | undefined {
  const s = stmts(db);
  const { filter, limit, offset } = query;
  const params: Params = {
    id,
    min: filter.min_area ?? null,
    max: filter.max_area ?? null,
    active: filter.state === undefined ? null : filter.state === 'active' ? 1 : 0,
  };
  return db.transaction(() => {
    const row = s.facility.get(id);
    if (!row) return undefined;
    const read = filter.sort === 'code' ? pageByCode(db, params, limit, offset) : pageBySql(db, params, query);
    return {
      facility: facilityOf(row),
      pricing_rules: s.rules.all(id),
      total: s.total.get(id)!,
      shown: read.shown,
      listings: read.rows.map(listingOfRow),
    };
  })();
}
