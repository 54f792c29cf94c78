// The SQLite file: created at the current schema, older files migrated in one transaction, newer files refused.
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../test/helpers/fixture.ts';
import { ListingsError } from '../errors.ts';
import { openDb, schemaVersionOf } from './db.ts';
import { MIGRATIONS, runMigration, SCHEMA_VERSION } from './migrations.ts';

let dir: string;
let cleanup: () => void;
beforeEach(() => ({ dir, cleanup } = tempDir()));
afterEach(() => cleanup());

/** A file as the first released program left it: migration 1 only, with a facility, a listing and a key. */
function v1File(extraSql = ''): string {
  const file = join(dir, 'v1.db');
  const db = new Database(file);
  runMigration(db, MIGRATIONS[0]!);
  db.exec(
    `
    INSERT INTO facilities VALUES ('wro-1', 'SafeBox', 'PLN', NULL, '2025-01-01T00:00:00.000Z');
    INSERT INTO listings VALUES ('lst_00000000000000000001', 'wro-1', 'M-07', 0, 1, 'Medium', 7.5, 2.5, 3, NULL, '',
      29900, 'P1M', 23, 1, 10, 3, 'P1M', 'P14D', 29900);
    INSERT INTO api_keys (id, facility_id, label, digest, hint, created_at) VALUES ('key_a', 'wro-1', 'old', 'abc', 'WXYZ', '2025-01-01');
  ` + extraSql,
  );
  db.pragma('user_version = 1');
  db.close();
  return file;
}

function columnsOf(file: string, table: string): string[] {
  const db = new Database(file, { readonly: true });
  const cols = (db.pragma(`table_info(${table})`) as { name: string }[]).map((c) => c.name);
  db.close();
  return cols;
}

function catchError(fn: () => unknown): unknown {
  try {
    fn();
  } catch (err) {
    return err;
  }
  throw new Error('expected an error');
}

describe('openDb', () => {
  it('gives a fresh file the current schema version', () => {
    const db = openDb(join(dir, 'sub', 'fresh.db'));
    expect(SCHEMA_VERSION).toBe(MIGRATIONS.length);
    expect(schemaVersionOf(db)).toBe(SCHEMA_VERSION);
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").pluck().all();
    expect(tables).toEqual([
      'api_keys',
      'audit_log',
      'facilities',
      'key_refs',
      'listings',
      'login_failures',
      'login_pending',
      'operator_sessions',
      'operators',
      'panel_shown_once',
      'photos',
      'pricing_rules',
      'referral_clicks',
      'snapshot_kids',
      'snapshot_published',
      'snapshot_versions',
      'sqlite_sequence',
      'webhook_clock',
      'webhook_endpoints',
      'webhook_outbox',
    ]);
    db.close();
  });

  it('uses WAL, a busy timeout and foreign keys', () => {
    const db = openDb(join(dir, 'wal.db'));
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('busy_timeout', { simple: true })).toBe(5000);
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    db.close();
    const custom = openDb(join(dir, 'wal.db'), { busyTimeoutMs: 250 });
    expect(custom.pragma('busy_timeout', { simple: true })).toBe(250);
    custom.close();
  });

  it('migrates a version 1 file to the current version and keeps its data', () => {
    const file = v1File();
    expect(columnsOf(file, 'api_keys')).not.toContain('allowed_origins');
    const db = openDb(file);
    expect(schemaVersionOf(db)).toBe(SCHEMA_VERSION);
    expect(db.prepare('SELECT id, name, currency FROM facilities').all()).toEqual([
      { id: 'wro-1', name: 'SafeBox', currency: 'PLN' },
    ]);
    expect(db.prepare('SELECT id, code, price_gross, free_units FROM listings').all()).toEqual([
      { id: 'lst_00000000000000000001', code: 'M-07', price_gross: 29900, free_units: 3 },
    ]);
    expect(db.prepare('SELECT id, label, hint, rate_per_s, burst, allowed_origins FROM api_keys').all()).toEqual([
      { id: 'key_a', label: 'old', hint: 'WXYZ', rate_per_s: null, burst: null, allowed_origins: '[]' },
    ]);
    db.close();
  });

  it('migrates in one transaction: a migration failing halfway leaves the file at version 1', () => {
    // The second migration adds rate_per_s and then burst; a pre-existing burst column makes it fail after its first steps.
    const file = v1File('ALTER TABLE api_keys ADD COLUMN burst INTEGER;');
    const err = catchError(() => openDb(file));
    expect(err).toBeInstanceOf(Error);
    const db = new Database(file, { readonly: true });
    expect(db.pragma('user_version', { simple: true })).toBe(1);
    expect(db.prepare("SELECT count(*) FROM sqlite_master WHERE name = 'snapshot_versions'").pluck().get()).toBe(0);
    expect(db.prepare('SELECT count(*) FROM listings').pluck().get()).toBe(1);
    db.close();
    expect(columnsOf(file, 'api_keys')).not.toContain('rate_per_s');
  });

  it('refuses an outdated file when asked not to migrate (the server), with code db_outdated', () => {
    const file = v1File();
    const err = catchError(() => openDb(file, { migrate: false }));
    expect(err).toBeInstanceOf(ListingsError);
    expect((err as ListingsError).code).toBe('db_outdated');
    expect(columnsOf(file, 'api_keys')).not.toContain('allowed_origins');
  });

  it('refuses a file with a newer schema version with code db_too_new, and leaves its version alone', () => {
    const file = join(dir, 'future.db');
    const future = new Database(file);
    future.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
    future.close();
    for (const migrate of [true, false]) {
      const err = catchError(() => openDb(file, { migrate }));
      expect(err).toBeInstanceOf(ListingsError);
      expect((err as ListingsError).code).toBe('db_too_new');
    }
    const check = new Database(file, { readonly: true });
    expect(check.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION + 1);
    expect(check.prepare("SELECT count(*) FROM sqlite_master WHERE type = 'table'").pluck().get()).toBe(0);
    check.close();
  });

  it('reports a path that cannot be opened with code db_unreadable', () => {
    const err = catchError(() => openDb(dir)); // a folder, not a file
    expect(err).toBeInstanceOf(ListingsError);
    expect((err as ListingsError).code).toBe('db_unreadable');
  });
});
