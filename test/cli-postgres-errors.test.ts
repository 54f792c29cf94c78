// Bad PostgreSQL settings: an unreachable server, a misspelt URL, wrong credentials, a missing database, a newer
// schema: one line naming what failed, a non-zero exit, no password in it, and nothing changed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { cli, DEMO_DATA, freePort, tempDir } from './helpers/fixture.ts';
import { PASSWORD, startPostgres, type PgServer } from './helpers/postgres.ts';

let server: PgServer;
beforeAll(async () => {
  server = await startPostgres();
});
afterAll(async () => {
  await server?.close();
});

function fails(db: string, args: string[] = ['keys', 'list']) {
  const r = cli(args, { env: { LISTINGS_DB: db } });
  expect(r.stderr.trim().split('\n')).toHaveLength(1);
  expect(r.stderr).not.toContain(PASSWORD);
  return r;
}

describe('bad PostgreSQL settings', () => {
  it('an unreachable server', async () => {
    const r = fails(`postgres://postgres:${PASSWORD}@127.0.0.1:${await freePort()}/x`);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/cannot reach PostgreSQL at 127\.0\.0\.1:\d+: connection refused/);
  });

  it('a misspelt scheme is a usage error, not a file name', () => {
    const { dir, cleanup } = tempDir();
    try {
      const r = cli(['import', DEMO_DATA], { env: { LISTINGS_DB: `postgress://u:${PASSWORD}@h/x` } });
      expect(r.status).toBe(2);
      expect(r.stderr).toContain('postgres:// URL');
      expect(r.stderr).not.toContain(PASSWORD);
      expect(dir).toBeTruthy();
    } finally {
      cleanup();
    }
  });

  it('wrong credentials and a missing database', async () => {
    const url = new URL(await server.newDatabase());
    url.password = 'not-the-password';
    const wrong = fails(url.toString());
    expect(wrong.status).toBe(1);
    expect(wrong.stderr).toContain('refused user "postgres"');
    expect(wrong.stderr).not.toContain('not-the-password');
    const missing = fails(server.url.replace(/\/postgres$/, '/nope'));
    expect(missing.status).toBe(1);
    expect(missing.stderr).toContain('database "nope" does not exist');
  });

  it('a database of a newer schema is refused by every command and left as it was', async () => {
    const db = await server.newDatabase();
    expect(cli(['db', 'migrate'], { env: { LISTINGS_DB: db } }).status).toBe(0);
    const c = new pg.Client(db);
    await c.connect();
    try {
      await c.query('UPDATE listings_schema SET version = 99');
      for (const args of [
        ['db', 'migrate'],
        ['import', DEMO_DATA],
        ['keys', 'list'],
      ]) {
        const r = fails(db, args);
        expect(r.status).toBe(1);
        expect(r.stderr).toContain('schema version 99');
      }
      expect((await c.query('SELECT version FROM listings_schema')).rows).toEqual([{ version: 99 }]);
      expect((await c.query('SELECT count(*)::int AS n FROM facilities')).rows).toEqual([{ n: 0 }]);
    } finally {
      await c.end();
    }
  });
});
