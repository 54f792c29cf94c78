// Snapshots on PostgreSQL: the same data gives the same files as on SQLite (signatures included: Ed25519 is
// deterministic), versions are reserved in the shared database so that two publishers never reuse one, and
// `snapshot publish --watch` publishes an import made through the CLI, and keeps running through a PostgreSQL restart.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSigningKey, type SigningKey } from '../server/snapshots/format/keygen.ts';
import { exportSnapshots } from '../server/snapshots/publish/export.ts';
import { openDb } from '../server/store/db.ts';
import { applyImport } from '../server/store/facilities.ts';
import { openPg } from '../server/store/pg/connect.ts';
import { Mirror } from '../server/store/pg/mirror.ts';
import { pgLedger } from '../server/store/pg/snapshot-ledger.ts';
import { openStore } from '../server/store/store.ts';
import { BIN, cli, cliAsync, DEMO_DATA, demoImport, demoJson, REPO, tempDir, writeJson } from './helpers/fixture.ts';
import { snapshotKeyFile } from './helpers/published.ts';
import { PASSWORD, startPostgres, type PgServer } from './helpers/postgres.ts';
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

  it('export through the CLI: versions reserved in the database, never reused by two exports at once into one folder', async () => {
    const env = { LISTINGS_DB: await server.newDatabase() };
    expect(cli(['import', DEMO_DATA], { env }).status).toBe(0);
    const exportTo = (out: string) =>
      cliAsync(['snapshot', 'export', '--out', join(dir, out), '--signing-key', keyFile, '--json'], { env });
    const first = await exportTo('cli-1');
    expect(first.status, first.stderr).toBe(0);
    expect(pointer(join(dir, 'cli-1'), 'wro-1').version).toBe(1);
    // Each folder counts its own versions: a first export into another is its version 1, and two exports into it take
    // 1 and 2. Two at once: the folder's lock lets one write and refuses the other (one line naming the lock), which
    // then runs again.
    let [a, b] = await Promise.all([exportTo('cli-2'), exportTo('cli-2')]);
    for (const refused of [a, b].filter((r) => r.status !== 0))
      expect(refused.stderr).toMatch(/being exported by process/);
    if (a.status !== 0) a = await exportTo('cli-2');
    if (b.status !== 0) b = await exportTo('cli-2');
    expect([a.status, b.status], a.stderr + b.stderr).toEqual([0, 0]);
    const versionOf = (out: string) =>
      (JSON.parse(out) as { results: { id: string; version: number }[] }).results.find((r) => r.id === 'wro-1')!
        .version;
    expect([versionOf(a.stdout), versionOf(b.stdout)].sort()).toEqual([1, 2]);
    expect(pointer(join(dir, 'cli-2'), 'wro-1').version).toBe(2);
    const verify = cli(['snapshot', 'verify', join(dir, 'cli-2', 'wro-1'), '--keys', join(dir, 'cli-2', 'keys.json')]);
    expect(verify.status, verify.stderr).toBe(0);
  });

  it('publish --watch: an import through the CLI reaches the folder as a new version', async () => {
    const { env, out, watcher } = await watchedDemo('watched');
    try {
      const before = await pointerUntil(out, () => true);
      importRaised(env, 1000);
      const after = await pointerUntil(out, (p) => p.version > before.version);
      expect(grossOf(after)).toBeGreaterThan(grossOf(before));
      expect(pointer(out, 'ber-1').version).toBe(1); // unchanged facilities are not published again
    } finally {
      watcher.child.kill('SIGTERM');
    }
    expect(await watcher.exited, watcher.stderr()).toBe(0);
  });

  it('publish --watch through a PostgreSQL restart: one line per failed try, no exit, and the next import published', async () => {
    const { env, out, watcher } = await watchedDemo('restarted');
    try {
      const before = await pointerUntil(out, () => true);
      await server.stop();
      // The first try may meet the server's shutdown; the next ones find nothing listening.
      await until('the outage reported', () =>
        /publish failed, retrying in \d+ s: cannot reach PostgreSQL at 127\.0\.0\.1:\d+: connection refused/.test(
          watcher.stderr(),
        ),
      );
      expect(watcher.child.exitCode).toBeNull();
      await server.start();
      importRaised(env, 2000);
      const after = await pointerUntil(out, (p) => p.version > before.version);
      expect(grossOf(after)).toBeGreaterThan(grossOf(before));
    } finally {
      watcher.child.kill('SIGTERM');
    }
    expect(await watcher.exited, watcher.stderr()).toBe(0);
    const failures = watcher
      .stderr()
      .split('\n')
      .filter((line) => line.includes('publish failed'));
    expect(failures.length).toBeGreaterThan(0);
    // Each failure names what failed in its one line: no stack trace, no password from the URL.
    for (const line of failures) expect(line).toMatch(/^\S+ publish failed, retrying in \d+ s: .*PostgreSQL/);
    expect(watcher.stderr()).not.toMatch(/^\s+at /m);
    expect(watcher.stderr()).not.toContain(`:${PASSWORD}@`);
  });
});

/** The demo data in a new database, and `listings snapshot publish --watch` of it into the folder `name`. */
async function watchedDemo(name: string) {
  const env = { LISTINGS_DB: await server.newDatabase() };
  expect(cli(['import', DEMO_DATA], { env }).status).toBe(0);
  const out = join(dir, name);
  const args = ['snapshot', 'publish', '--to', out, '--signing-key', keyFile, '--watch'];
  const child = spawn(process.execPath, [BIN, ...args], { cwd: REPO, env: { ...process.env, ...env } });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  return { env, out, watcher: { child, exited, stderr: () => stderr } };
}

type Pointer = ReturnType<typeof pointer>;

/** wro-1's pointer in the folder, once it is there and `ok` holds for it. */
const pointerUntil = (out: string, ok: (p: Pointer) => boolean) =>
  until('wro-1 published', () => {
    try {
      const p = pointer(out, 'wro-1');
      return ok(p) && p;
    } catch {
      return undefined; // not written yet, or between the temp file and its rename
    }
  });

const grossOf = (p: Pointer) => p.listings.find((l) => l.code === 'M-07')!.price.gross;

/** An import through the CLI of the demo data with M-07 `by` dearer. */
function importRaised(env: NodeJS.ProcessEnv, by: number) {
  const data = demoJson();
  data.facilities[0].listings.find((l: { code: string }) => l.code === 'M-07').price_gross += by;
  expect(cli(['import', writeJson(dir, `raised-${by}.json`, data)], { env }).status).toBe(0);
}
