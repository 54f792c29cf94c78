// The panel's page of facilities on PostgreSQL: the statements SQLite runs (../panel.ts), in PostgreSQL's dialect.
import {
  facilityNamesSql,
  facilityPageSql,
  matchingIds,
  pageOf,
  searchedPage,
  type FacilityPage,
  type FacilityQuery,
  type PageRow,
} from '../panel.ts';
import type { Pool } from './connect.ts';

const PAGE_SQL = facilityPageSql('pg');
const NAMES_SQL = facilityNamesSql('pg');

export async function facilityPagePg(pool: Pool, query: FacilityQuery): Promise<FacilityPage> {
  const rowsOf = async (ids: string[] | null, limit: number, offset: number) =>
    (await pool.query<PageRow>(PAGE_SQL, [ids && JSON.stringify(ids), limit, offset])).rows;
  if (query.search.trim() === '') return pageOf(await rowsOf(null, query.limit, query.offset));
  const { rows } = await pool.query<{ id: string; name: string }>(NAMES_SQL);
  return searchedPage(matchingIds(rows, query.search), query, (page) => rowsOf(page, page.length, 0));
}
