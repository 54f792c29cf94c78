// The panel's reads: a page of facilities with their counts in one statement (both dialects), one facility's listings
// as the Listings tab prices them (no photos, no long text).
import type { Facility } from '../domain/facility.ts';
import type { PricingRule } from '../../shared/pricing.ts';
import type { Db } from './db.ts';
import { statementsFor } from './statements.ts';

/** A line of the panel's facilities list. */
export interface FacilitySummary {
  id: string;
  name: string;
  imported_at: string;
  listings: number;
  active_listings: number;
  /** Free units of the active listings. */
  free_units: number;
}

export interface FacilityQuery {
  /** Matched, case-insensitively, anywhere in any of FACILITY_SEARCH_COLUMNS; empty matches every facility. */
  search: string;
  offset: number;
  limit: number;
}

export interface FacilityPage {
  /** Facilities the search matches, on every page. */
  total: number;
  rows: FacilitySummary[];
}

/** What a search matches, one OR term each: a facility's city is one more entry here once the table has one. */
export const FACILITY_SEARCH_COLUMNS = ['f.id', 'f.name'] as const;

/** The search as a LIKE pattern (its own % and _ taken literally), or '' for none. */
export function searchPattern(search: string): string {
  const term = search.trim();
  return term === '' ? '' : `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * One statement for a page and its total: the window count is taken before LIMIT, and the counts are made for the
 * page's rows only, so its cost grows with the facilities, not with their listings. Parameters: pattern, limit, offset.
 */
export function facilityPageSql(dialect: 'sqlite' | 'pg'): string {
  const p = (n: 1 | 2 | 3) => (dialect === 'pg' ? `$${n}` : `@${['pattern', 'limit', 'offset'][n - 1]}`);
  // lower() on both sides: the dialect's own idea of case applies alike to the text and to the search (SQLite's folds
  // ASCII only: `Łódź` finds `Łódź` and `łódź` does not, rather than neither).
  const match = FACILITY_SEARCH_COLUMNS.map((c) => `lower(${c}) LIKE lower(${p(1)}) ESCAPE '\\'`).join(' OR ');
  // PostgreSQL orders text by byte, as SQLite does, only in the C collation.
  const order = dialect === 'pg' ? 'COLLATE "C"' : '';
  const count = (where: string, what = 'count(*)') =>
    `(SELECT CAST(coalesce(${what}, 0) AS INTEGER) FROM listings l WHERE l.facility_id = p.id${where})`;
  return `WITH p AS (
    SELECT f.id, f.name, f.imported_at, CAST(count(*) OVER () AS INTEGER) AS total FROM facilities f
    WHERE ${p(1)} = '' OR ${match}
    ORDER BY f.id ${order} LIMIT ${p(2)} OFFSET ${p(3)})
  SELECT p.id, p.name, p.imported_at, p.total, ${count('')} AS listings,
    ${count(' AND l.active = 1')} AS active_listings, ${count(' AND l.active = 1', 'sum(l.free_units)')} AS free_units
  FROM p ORDER BY p.id ${order}`;
}

type PageRow = FacilitySummary & { total: number };

/** The rows of facilityPageSql as a page (a page past the end has no rows, and then no total either: 0). */
export function pageOf(rows: readonly PageRow[]): FacilityPage {
  return { total: rows[0]?.total ?? 0, rows: rows.map(({ total: _, ...row }) => row) };
}

/** What the Listings tab shows of a listing and what prices it. */
export interface PanelListingRow {
  id: string;
  code: string;
  title: string;
  area_m2: number;
  price_gross: number;
  price_period: string;
  vat_rate: number;
  dynamic_pricing: boolean;
  total_units: number;
  free_units: number;
  /** Whether partners see it: a listing left out of the operator's last import is kept, inactive. */
  active: boolean;
}

export interface PanelFacilityListings {
  facility: Pick<Facility, 'id' | 'name' | 'currency'>;
  pricing_rules: PricingRule[];
  /** Every listing, active first, each part in import order. */
  listings: PanelListingRow[];
}

const stmts = statementsFor((db) => ({
  page: db.prepare<[{ pattern: string; limit: number; offset: number }], PageRow>(facilityPageSql('sqlite')),
  facility: db.prepare<[string], Pick<Facility, 'id' | 'name' | 'currency'>>(
    'SELECT id, name, currency FROM facilities WHERE id = ?',
  ),
  rules: db.prepare<[string], PricingRule>(
    'SELECT min_occupancy, adjust_pct FROM pricing_rules WHERE facility_id = ? ORDER BY min_occupancy',
  ),
  listings: db.prepare<
    [string],
    Omit<PanelListingRow, 'dynamic_pricing' | 'active'> & { dynamic_pricing: number; active: number }
  >(
    `SELECT id, code, title, area_m2, price_gross, price_period, vat_rate, dynamic_pricing, total_units, free_units, active
    FROM listings WHERE facility_id = ? ORDER BY active DESC, position`,
  ),
}));

export function facilityPage(db: Db, query: FacilityQuery): FacilityPage {
  return pageOf(stmts(db).page.all({ pattern: searchPattern(query.search), limit: query.limit, offset: query.offset }));
}

/** The facility's name and currency; undefined if unknown. */
export function facilityHead(db: Db, id: string): PanelFacilityListings['facility'] | undefined {
  return stmts(db).facility.get(id);
}

/** The facility's listings, inactive ones included, with what prices them, read as of one moment; undefined if unknown. */
export function panelListings(db: Db, id: string): PanelFacilityListings | undefined {
  const s = stmts(db);
  return db.transaction(() => {
    const facility = s.facility.get(id);
    if (!facility) return undefined;
    const listings = s.listings
      .all(id)
      .map((r) => ({ ...r, dynamic_pricing: r.dynamic_pricing === 1, active: r.active === 1 }));
    return { facility, pricing_rules: s.rules.all(id), listings };
  })();
}
