// Opens a pool on PostgreSQL, says in one line what failed when it cannot, and brings the schema up to date in one transaction.
import pg from 'pg';
import { ListingsError } from '../../errors.ts';
import { SCHEMA_VERSION } from '../migrations.ts';
import { pendingMigrations } from '../schema.ts';
import { describeLocation } from './location.ts';
import { PG_MIGRATIONS, runPgMigration } from './migrations.ts';

export type Pool = pg.Pool;
export type PoolClient = pg.PoolClient;

export interface PgOpenOptions {
  /** Apply pending migrations (default true). When false, an outdated schema is an error. */
  migrate?: boolean;
  /** Connections this process may hold (default 4). */
  max?: number;
  /** Client-side limit on any one query: a database that stopped answering fails the query instead of hanging. */
  queryTimeoutMs?: number;
}

/** Any two processes migrating at once take turns on this lock; a constant of our own. */
const MIGRATION_LOCK = 26_2026;

export function poolFor(location: string, options: PgOpenOptions = {}): Pool {
  try {
    new URL(location);
  } catch {
    throw new ListingsError('invalid_config', `LISTINGS_DB (--db): not a valid postgres:// URL`);
  }
  const pool = new pg.Pool({
    connectionString: location,
    max: options.max ?? 4,
    connectionTimeoutMillis: 5_000,
    query_timeout: options.queryTimeoutMs,
    application_name: 'storage-listings',
  });
  // An idle connection the server closed (a restart) must not end the process: the next query reconnects.
  pool.on('error', () => {});
  return pool;
}

/** The pool, once a connection has worked and the schema is current (or was made so). */
export async function openPg(location: string, options: PgOpenOptions = {}): Promise<Pool> {
  const pool = poolFor(location, options);
  try {
    await migratePg(pool, location, options.migrate ?? true);
  } catch (err) {
    await pool.end().catch(() => {});
    throw pgFailure(err, location);
  }
  return pool;
}

/** The schema version recorded in the database (0 for an empty one). */
export async function pgSchemaVersion(q: pg.ClientBase | Pool): Promise<number> {
  const { rows } = await q.query<{ exists: boolean }>(`SELECT to_regclass('listings_schema') IS NOT NULL AS exists`);
  if (!rows[0]!.exists) return 0;
  const v = await q.query<{ version: number }>('SELECT version FROM listings_schema');
  return v.rows[0]?.version ?? 0;
}

async function migratePg(pool: Pool, location: string, apply: boolean): Promise<void> {
  // DDL is transactional in PostgreSQL: a failed migration leaves the schema as it was.
  await inTransaction(pool, async (c) => {
    await c.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    const current = await pgSchemaVersion(c);
    const pending = pendingMigrations(PG_MIGRATIONS, current, apply, ` at ${describeLocation(location)}`);
    if (pending.length === 0) return;
    if (current === 0)
      await c.query('CREATE TABLE listings_schema (version integer NOT NULL); INSERT INTO listings_schema VALUES (0)');
    for (const m of pending) await runPgMigration(c, m);
    await c.query('UPDATE listings_schema SET version = $1', [SCHEMA_VERSION]);
  });
}

/** A driver error as one line that names what failed: the server, the credentials, the database. */
export function pgFailure(err: unknown, location: string): Error {
  if (err instanceof ListingsError) return err;
  const e = err as { code?: string; message?: string };
  let url: URL | undefined;
  try {
    url = new URL(location);
  } catch {
    // poolFor has refused an unparseable URL already
  }
  const server = url ? `${url.hostname}:${url.port || 5432}` : 'the server';
  const database = url ? decodeURIComponent(url.pathname.slice(1)) || url.username : '';
  const where = `PostgreSQL at ${describeLocation(location)}`;
  switch (e.code) {
    case 'ECONNREFUSED':
      return new ListingsError('db_unreachable', `cannot reach PostgreSQL at ${server}: connection refused`);
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return new ListingsError('db_unreachable', `cannot reach PostgreSQL at ${server}: no such host`);
    case 'ETIMEDOUT':
    case 'EHOSTUNREACH':
      return new ListingsError('db_unreachable', `cannot reach PostgreSQL at ${server}: ${e.code}`);
    case '28P01':
    case '28000':
      return new ListingsError(
        'db_credentials',
        `${where} refused user "${url ? decodeURIComponent(url.username) : ''}": wrong password or no access`,
      );
    case '3D000':
      return new ListingsError('db_missing', `${where}: database "${database}" does not exist`);
  }
  if (/timeout/i.test(e.message ?? ''))
    return new ListingsError('db_unreachable', `cannot reach PostgreSQL at ${server}: timed out`);
  return new ListingsError('db_failed', `${where}: ${e.message ?? String(err)}`);
}

/** Runs fn in a transaction on one connection; any error rolls it all back. `begin` may name an isolation level. */
export async function inTransaction<T>(pool: Pool, fn: (c: PoolClient) => Promise<T>, begin = 'BEGIN'): Promise<T> {
  const c = await pool.connect();
  // A connection lost between two statements (the server restarting) fails the statement that follows; unheard, the
  // client's error event would end the process. The pool drops the dead client on release.
  const failed = () => {};
  c.on('error', failed);
  try {
    await c.query(begin);
    const result = await fn(c);
    await c.query('COMMIT');
    return result;
  } catch (err) {
    await c.query('ROLLBACK').catch(() => {});
    throw err;
  } finally {
    c.off('error', failed);
    c.release();
  }
}
