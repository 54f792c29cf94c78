// The panel's reads: a page of facilities with their counts in one statement (both dialects), a facility's head, and
// what the Listings tab prices a listing from (its page is read by panel-listing-page.ts).
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
  /** Matched anywhere in a facility's id or name, case folded (Unicode, not ASCII only); empty matches every one. */
  search: string;
  offset: number;
  limit: number;
}

export interface FacilityPage {
  /** Facilities the search matches, on every page. */
  total: number;
  rows: FacilitySummary[];
}

/** Case folded beyond ASCII (`ZÜRICH` is `zürich`); upper then lower case also makes `ß` and `SS` one. */
const foldCase = (text: string) => text.normalize('NFC').toUpperCase().toLowerCase();

/**
 * The ids whose id or name holds the search, in the order given. Compared here, not in SQL: SQLite's lower() folds
 * ASCII only, and PostgreSQL's follows the database's locale; 10,000 facilities' ids and names take about 5 ms.
 */
export function matchingIds(facilities: readonly { id: string; name: string }[], search: string): string[] {
  const term = foldCase(search.trim());
  return facilities.filter((f) => foldCase(f.id).includes(term) || foldCase(f.name).includes(term)).map((f) => f.id);
}

/** Every facility's id and name, for matchingIds, in the page's order. */
export const facilityNamesSql = (dialect: 'sqlite' | 'pg') =>
  `SELECT id, name FROM facilities ORDER BY id ${dialect === 'pg' ? 'COLLATE "C"' : ''}`;

/**
 * One statement for a page and its total: the window count is taken before LIMIT, and the counts are made for the
 * page's rows only, so its cost grows with the facilities, not with their listings. Parameters: ids (a JSON array of
 * the facilities to show, or null for all), limit, offset.
 */
export function facilityPageSql(dialect: 'sqlite' | 'pg'): string {
  const p = (n: 1 | 2 | 3) => (dialect === 'pg' ? `$${n}` : `@${['ids', 'limit', 'offset'][n - 1]}`);
  const listed =
    dialect === 'pg' ? 'SELECT jsonb_array_elements_text($1::jsonb)' : `SELECT value FROM json_each(${p(1)})`;
  // PostgreSQL orders text by byte, as SQLite does, only in the C collation.
  const order = dialect === 'pg' ? 'COLLATE "C"' : '';
  const count = (where: string, what = 'count(*)') =>
    `(SELECT CAST(coalesce(${what}, 0) AS INTEGER) FROM listings l WHERE l.facility_id = p.id${where})`;
  return `WITH p AS (
    SELECT f.id, f.name, f.imported_at, CAST(count(*) OVER () AS INTEGER) AS total FROM facilities f
    WHERE ${dialect === 'pg' ? '$1::text' : p(1)} IS NULL OR f.id IN (${listed})
    ORDER BY f.id ${order} LIMIT ${p(2)} OFFSET ${p(3)})
  SELECT p.id, p.name, p.imported_at, p.total, ${count('')} AS listings,
    ${count(' AND l.active = 1')} AS active_listings, ${count(' AND l.active = 1', 'sum(l.free_units)')} AS free_units
  FROM p ORDER BY p.id ${order}`;
}

/**
 * A page of the facilities a search matched: `ids` in order, `rowsOf` reading a page of them by facilityPageSql (never
 * called for a page past the end, which has no rows and no total: 0).
 */
export async function searchedPage(
  ids: readonly string[],
  query: FacilityQuery,
  rowsOf: (page: string[]) => PageRow[] | Promise<PageRow[]>,
): Promise<FacilityPage> {
  const page = ids.slice(query.offset, query.offset + query.limit);
  if (page.length === 0) return { total: 0, rows: [] };
  return { total: ids.length, rows: pageOf(await rowsOf(page)).rows };
}

export type PageRow = FacilitySummary & { total: number };

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
  /** The listings shown, active first, each part in import order, unless the tab's order says otherwise. */
  listings: PanelListingRow[];
}

const stmts = statementsFor((db) => ({
  page: db.prepare<[{ ids: string | null; limit: number; offset: number }], PageRow>(facilityPageSql('sqlite')),
  names: db.prepare<[], { id: string; name: string }>(facilityNamesSql('sqlite')),
  facility: db.prepare<[string], Pick<Facility, 'id' | 'name' | 'currency'>>(
    'SELECT id, name, currency FROM facilities WHERE id = ?',
  ),
  rules: db.prepare<[string], PricingRule>(
    'SELECT min_occupancy, adjust_pct FROM pricing_rules WHERE facility_id = ? ORDER BY min_occupancy',
  ),
}));

export async function facilityPage(db: Db, query: FacilityQuery): Promise<FacilityPage> {
  const s = stmts(db);
  if (query.search.trim() === '') return pageOf(s.page.all({ ids: null, limit: query.limit, offset: query.offset }));
  return searchedPage(matchingIds(s.names.all(), query.search), query, (page) =>
    s.page.all({ ids: JSON.stringify(page), limit: page.length, offset: 0 }),
  );
}

/** The facility's name and currency; undefined if unknown. */
export function facilityHead(db: Db, id: string): PanelFacilityListings['facility'] | undefined {
  return stmts(db).facility.get(id);
}
