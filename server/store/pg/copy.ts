// `listings db copy`: an existing SQLite file's rows into an empty PostgreSQL database, in one transaction.
import { ListingsError } from '../../errors.ts';
import { openDb } from '../db.ts';
import { recordChange } from './changes.ts';
import { inTransaction, openPg, pgFailure } from './connect.ts';
import { describeLocation } from './location.ts';
import { ALL_TABLES, KEPT_IDS, pgInsertFromJson, TABLES, type Table } from './tables.ts';

/** Rows per statement: bounds one statement's JSON. */
const ROWS_PER_INSERT = 5_000;

export type CopySummary = Record<Table, number>;

export async function copySqliteToPg(file: string, location: string): Promise<CopySummary> {
  const db = openDb(file, { mustExist: true });
  try {
    const pool = await openPg(location);
    try {
      return await inTransaction(pool, async (c) => {
        const held = await c.query<{ n: number }>(
          `SELECT ((SELECT count(*) FROM facilities) + (SELECT count(*) FROM api_keys)
            + (SELECT count(*) FROM operators) + (SELECT count(*) FROM audit_log))::int AS n`,
        );
        if (held.rows[0]!.n > 0)
          throw new ListingsError(
            'db_not_empty',
            `${describeLocation(location)} already holds facilities, keys, operators or audit rows; copy only into an empty database`,
          );
        const counts = {} as CopySummary;
        for (const t of ALL_TABLES) {
          // rowid keeps keys made within one millisecond in creation order (PostgreSQL's seq takes it over).
          const rows = db.prepare(`SELECT ${TABLES[t].join(', ')} FROM ${t} ORDER BY rowid`).all();
          for (let i = 0; i < rows.length; i += ROWS_PER_INSERT) {
            const json = JSON.stringify(rows.slice(i, i + ROWS_PER_INSERT));
            if (json.includes('\\u0000')) refuseNul(file, t, rows.slice(i, i + ROWS_PER_INSERT));
            await c.query(pgInsertFromJson(t), [json]);
          }
          counts[t] = rows.length;
          // New rows then continue after the copied ids.
          if (KEPT_IDS.has(t))
            await c.query(`SELECT setval(pg_get_serial_sequence('${t}', 'id'), max(id)) FROM ${t} HAVING count(*) > 0`);
        }
        const ids = (t: 'facilities' | 'api_keys') => db.prepare<[], string>(`SELECT id FROM ${t}`).pluck().all();
        await recordChange(c, { facilities: ids('facilities'), keys: ids('api_keys') });
        return counts;
      });
    } catch (err) {
      throw pgFailure(err, location);
    } finally {
      await pool.end();
    }
  } finally {
    db.close();
  }
}

/**
 * PostgreSQL's text holds no NUL; SQLite's may (rows written by hand or by an older version): the row is named, so
 * that the operator can import its facility again, rather than read a driver's message.
 */
function refuseNul(file: string, table: Table, rows: unknown[]): void {
  for (const row of rows as Record<string, unknown>[])
    for (const [column, value] of Object.entries(row))
      if (typeof value === 'string' && value.includes('\u0000')) {
        const id = row.id ?? row.listing_id ?? row.facility_id;
        throw new ListingsError(
          'invalid_data',
          `${file}: ${table}${id === undefined ? '' : ` ${String(id)}`}: ${column} holds a NUL character (U+0000), ` +
            'which PostgreSQL cannot store; import its facility again (the import refuses control characters), ' +
            'then copy; nothing was copied',
        );
      }
}
