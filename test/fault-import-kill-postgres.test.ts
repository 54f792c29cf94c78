// SIGKILL of `listings import` on PostgreSQL while its one transaction is writing (2,000 facilities x 50 listings): the
// database holds exactly what it held before, and the next import goes through as usual.
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bigImport } from './helpers/data.ts';
import { BIN, cli, cliAsync, DEMO_DATA, demoJson, REPO, tempDir } from './helpers/fixture.ts';
import { startPostgres, type PgServer } from './helpers/postgres.ts';
import { until } from './helpers/wait.ts';

let server: PgServer;
let url: string;
let db: pg.Client;
let dir: string;
let cleanup: () => void;

beforeAll(async () => {
  server = await startPostgres();
  url = await server.newDatabase();
  ({ dir, cleanup } = tempDir());
  expect(cli(['import', DEMO_DATA], { env: { LISTINGS_DB: url } }).status).toBe(0);
  expect(cli(['keys', 'create', '--facility', 'wro-1'], { env: { LISTINGS_DB: url } }).status).toBe(0);
  db = new pg.Client(url);
  await db.connect();
});
afterAll(async () => {
  await db?.end();
  await server?.close();
  cleanup?.();
});

/** Every row of every table, as one digest per table: equal digests, equal data. */
async function contents(): Promise<Record<string, string>> {
  const { rows } = await db.query<{ name: string }>(
    "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY 1",
  );
  const out: Record<string, string> = {};
  for (const { name } of rows) {
    const r = await db.query<{ n: string; digest: string | null }>(
      `SELECT count(*) AS n, md5(string_agg(t::text, E'\\n' ORDER BY t::text)) AS digest FROM "${name}" t`,
    );
    out[name] = `${r.rows[0]!.n} ${r.rows[0]!.digest}`;
  }
  return out;
}

/** What the import's connection is doing inside a transaction that has written (has an xid), if it is. */
async function writingQuery(): Promise<string | undefined> {
  const { rows } = await db.query<{ query: string }>(
    `SELECT query FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()
       AND application_name = 'storage-listings' AND backend_xid IS NOT NULL`,
  );
  return rows[0]?.query;
}

const importers = async () =>
  Number(
    (
      await db.query<{ n: string }>(
        `SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()
           AND application_name = 'storage-listings'`,
      )
    ).rows[0]!.n,
  );

describe('SIGKILL during a large import into PostgreSQL', () => {
  it('leaves the database as it was before, and usable afterwards', async () => {
    const before = await contents();
    expect(Number(before.listings!.split(' ')[0])).toBeGreaterThan(10);
    const big = join(dir, 'big.json');
    writeFileSync(big, JSON.stringify(bigImport('big', 2000, 50)));

    const child = spawn(process.execPath, [BIN, 'import', big], {
      cwd: REPO,
      env: { ...process.env, LISTINGS_DB: url },
      stdio: 'ignore',
    });
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      child.once('exit', (code, signal) => resolve({ code, signal })),
    );
    let finished = false;
    void exited.then(() => (finished = true));
    // The middle of the transaction: it has written the change counter and is now writing listings of some round, so
    // that round's facilities are written too, uncommitted.
    const seen = await until(
      'the import writing listings',
      async () => {
        if (finished) throw new Error('the import finished before it could be killed');
        const q = await writingQuery();
        return q !== undefined && /\blistings\b/.test(q) ? q : undefined;
      },
      { everyMs: 5, timeoutMs: 60_000 },
    );
    child.kill('SIGKILL');
    expect(await exited).toEqual({ code: null, signal: 'SIGKILL' });
    expect(seen).toMatch(/\blistings\b/);
    // The server rolls the transaction back when it sees the connection gone.
    await until('the killed import gone from the server', async () => (await importers()) === 0);

    expect(await contents()).toEqual(before);

    const again = await cliAsync(['import', '-', '--json'], {
      env: { LISTINGS_DB: url },
      input: JSON.stringify(demoJson()),
    });
    expect(again.status, again.stderr).toBe(0);
    const list = await cliAsync(['facilities', 'list', '--json'], { env: { LISTINGS_DB: url } });
    expect(JSON.parse(list.stdout).map((f: { id: string }) => f.id)).toEqual(
      demoJson()
        .facilities.map((f) => f.id)
        .sort(),
    );
    const after = await contents();
    expect(Object.keys(after)).toEqual(Object.keys(before));
    expect(after.api_keys).toEqual(before.api_keys);
  }, 120_000);
});
