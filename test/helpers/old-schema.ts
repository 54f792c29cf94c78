// A database as an older release left it: the migrations up to a schema version, then rows of that schema, on either
// store. A test opens it with the current store, which migrates it, and looks at what the migration made of the rows.
import Database from 'better-sqlite3';
import { join } from 'node:path';
import pg from 'pg';
import { MIGRATIONS, runMigration } from '../../server/store/migrations.ts';
import { PG_MIGRATIONS, runPgMigration } from '../../server/store/pg/migrations.ts';
import type { PgServer } from './postgres.ts';

/** A SQLite file in `dir` at schema `version` holding `rows` (SQL statements); its path. */
export function sqliteAt(dir: string, version: number, rows: string, name = 'old.db'): string {
  const file = join(dir, name);
  const db = new Database(file);
  try {
    for (const m of MIGRATIONS.slice(0, version)) runMigration(db, m);
    db.pragma(`user_version = ${version}`);
    db.exec(rows);
  } finally {
    db.close();
  }
  return file;
}

/** A new database on `server` at schema `version` holding `rows` (SQL statements); its URL. */
export async function postgresAt(server: PgServer, version: number, rows: string): Promise<string> {
  const url = await server.newDatabase();
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(
      `CREATE TABLE listings_schema (version integer NOT NULL); INSERT INTO listings_schema VALUES (${version})`,
    );
    for (const m of PG_MIGRATIONS.slice(0, version)) await runPgMigration(client, m);
    await client.query(rows);
  } finally {
    await client.end();
  }
  return url;
}
