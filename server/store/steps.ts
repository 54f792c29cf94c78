// Store code written once for both databases: a generator yields each statement ($1-style parameters) and receives its
// rows; one runner executes it on SQLite (synchronously, inside an import's transaction too), one on PostgreSQL.
import type { Db } from './db.ts';
import type { PoolClient } from './pg/connect.ts';
import type BetterSqlite3 from 'better-sqlite3';

export type Row = Record<string, unknown>;
export interface Query {
  text: string;
  params: unknown[];
}
export type Steps<T> = Generator<Query, T, Row[]>;

export const sql = (text: string, ...params: unknown[]): Query => ({ text, params });

/** Row locks a claim takes on PostgreSQL; SQLite's single writer already serialises claims. */
export const SKIP_LOCKED = '/*skip-locked*/';

const prepared = new WeakMap<Db, Map<string, { stmt: BetterSqlite3.Statement; order: number[] }>>();

function sqliteStatement(db: Db, text: string) {
  let cache = prepared.get(db);
  if (!cache) prepared.set(db, (cache = new Map()));
  let entry = cache.get(text);
  if (!entry) {
    const order: number[] = [];
    const converted = text.replaceAll(SKIP_LOCKED, '').replace(/\$(\d+)/g, (_, n: string) => {
      order.push(Number(n) - 1);
      return '?';
    });
    entry = { stmt: db.prepare(converted), order };
    cache.set(text, entry);
  }
  return entry;
}

/** Runs the steps on SQLite; the caller wraps them in a transaction when they write more than one row. */
export function runSqlite<T>(db: Db, steps: Steps<T>): T {
  let next = steps.next();
  while (!next.done) {
    const query = next.value;
    const { stmt, order } = sqliteStatement(db, query.text);
    const params = order.map((i) => query.params[i]);
    const rows = stmt.reader ? (stmt.all(...params) as Row[]) : (stmt.run(...params), []);
    next = steps.next(rows);
  }
  return next.value;
}

/** Runs the steps on one PostgreSQL connection (the caller's transaction). */
export async function runPg<T>(c: PoolClient, steps: Steps<T>): Promise<T> {
  let next = steps.next();
  while (!next.done) {
    const text = next.value.text.replaceAll(SKIP_LOCKED, 'FOR UPDATE SKIP LOCKED');
    const { rows } = await c.query<Row>(text, next.value.params);
    next = steps.next(rows);
  }
  return next.value;
}
