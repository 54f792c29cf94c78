// Snapshots on PostgreSQL: the same data gives the same files as on SQLite (signatures included: Ed25519 is
// deterministic), versions are reserved in the shared database so that two publishers never reuse one, and
// `snapshot publish --watch` publishes an import made through the CLI.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSigningKey, type SigningKey } from '../server/snapshots/keygen.ts';
import { exportSnapshots } from '../server/snapshots/export.ts';
import { openDb } from '../server/store/db.ts';
import { applyImport } from '../server/store/facilities.ts';
import { openPg } from '../server/store/pg/connect.ts';
import { Mirror } from '../server/store/pg/mirror.ts';
import { pgLedger } from '../server/store/pg/snapshot-ledger.ts';
import { openStore } from '../server/store/store.ts';
import { BIN, cli, cliAsync, DEMO_DATA, demoImport, demoJson, REPO, tempDir, writeJson } from './helpers/fixture.ts';
import { snapshotKeyFile } from './helpers/published.ts';
import { startPostgres, type PgServer } from './helpers/postgres.ts';
import { until } from './helpers/wait.ts';

let server: PgServer;
let dir: string;
let cleanup: () => void;
let keyFile: string;
let key: SigningKey;

beforeAll(async () => {
  server = await startPostgres();
  ({ dir, cleanup } = tempDir());
  keyFile = (await snapshotKeyFile(join(dir, 'secrets'))).keyFile;
  key = await loadSigningKey(keyFile);
});
afterAll(async () => {
  await server?.close();
  cleanup?.();
});

/** Every file under a folder, by relative path, as base64. */
function filesOf(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else out[relative(root, p)] = readFileSync(p).toString('base64');
    }
  };
  walk(root);
  return out;
}

const pointer = (out: string, facility: string) =>
  JSON.parse(readFileSync(join(out, facility, 'listings.json'), 'utf8')) as {
    version: number;
    listings: { code: string; price: { gross: number } }[];
  };

describe('snapshots on PostgreSQL', () => {
  it('export: the same files, byte for byte, as from a SQLite file with the same data', async () => {
    const opts = {
      key,
      publicUrl: 'https://listings.example',
      ttlSeconds: 86_400,
      now: new Date('2030-01-02T03:04:05Z'),
    };
    const db = openDb(join(dir, 'same.db'));
    applyImport(db, demoImport());
    await exportSnapshots(db, { ...opts, outDir: join(dir, 'from-sqlite') });
    db.close();

    const url = await server.newDatabase();
    const store = await openStore(url);
    await store.applyImport(demoImport());
    await store.close();
    const pool = await openPg(url);
    const mirror = new Mirror(pool);
    try {
      await exportSnapshots(pgLedger(pool, mirror, url), { ...opts, outDir: join(dir, 'from-pg') });
    } finally {
      mirror.close();
      await pool.end();
    }
    const sqlite = filesOf(join(dir, 'from-sqlite'));
    expect(Object.keys(sqlite)).toContain('wro-1/v1/listings.json.sig');
    expect(filesOf(join(dir, 'from-pg'))).toEqual(sqlite);
  });

  it('export through the CLI: versions reserved in the database, never reused by two exports at once', async () => {
    const env = { LISTINGS_DB: await server.newDatabase() };
    expect(cli(['import', DEMO_DATA], { env }).status).toBe(0);
    const exportTo = (out: string) =>
      cliAsync(['snapshot', 'export', '--out', join(dir, out), '--signing-key', keyFile, '--json'], { env });
    const first = await exportTo('cli-1');
    expect(first.status, first.stderr).toBe(0);
    expect(pointer(join(dir, 'cli-1'), 'wro-1').version).toBe(1);
    const [a, b] = await Promise.all([exportTo('cli-2'), exportTo('cli-3')]);
    expect([a.status, b.status]).toEqual([0, 0]);
    const versions = ['cli-2', 'cli-3'].map((out) => pointer(join(dir, out), 'wro-1').version).sort();
    expect(versions).toEqual([2, 3]);
    const verify = cli(['snapshot', 'verify', join(dir, 'cli-3', 'wro-1'), '--keys', join(dir, 'cli-3', 'keys.json')]);
    expect(verify.status, verify.stderr).toBe(0);
  });

  it('publish --watch: an import through the CLI reaches the folder as a new version', async () => {
    const env = { LISTINGS_DB: await server.newDatabase() };
    expect(cli(['import', DEMO_DATA], { env }).status).toBe(0);
    const out = join(dir, 'watched');
    const args = ['snapshot', 'publish', '--to', out, '--signing-key', keyFile, '--watch'];
    const child = spawn(process.execPath, [BIN, ...args], { cwd: REPO, env: { ...process.env, ...env } });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    try {
      const before = await until('the first publish', () => {
        try {
          return pointer(out, 'wro-1');
        } catch {
          return undefined;
        }
      });
      const data = demoJson();
      data.facilities[0].listings.find((l: { code: string }) => l.code === 'M-07').price_gross += 1000;
      expect(cli(['import', writeJson(dir, 'raised.json', data)], { env }).status).toBe(0);
      const after = await until('the import published', () => {
        try {
          const p = pointer(out, 'wro-1');
          return p.version > before.version && p;
        } catch {
          return undefined; // between the temp file and its rename
        }
      });
      const gross = (p: typeof before) => p.listings.find((l) => l.code === 'M-07')!.price.gross;
      expect(gross(after)).toBeGreaterThan(gross(before));
      expect(pointer(out, 'ber-1').version).toBe(1); // unchanged facilities are not published again
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited, stderr).toBe(0);
  });
});
