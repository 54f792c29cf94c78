// The panel's page of facilities on PostgreSQL: the statement SQLite runs (../panel.ts), in PostgreSQL's dialect.
import { facilityPageSql, pageOf, searchPattern, type FacilityPage, type FacilityQuery } from '../panel.ts';
import type { Pool } from './connect.ts';

const PAGE_SQL = facilityPageSql('pg');

export async function facilityPagePg(pool: Pool, query: FacilityQuery): Promise<FacilityPage> {
  const { rows } = await pool.query<Parameters<typeof pageOf>[0][number]>(PAGE_SQL, [
    searchPattern(query.search),
    query.limit,
    query.offset,
  ]);
  return pageOf(rows);
}
