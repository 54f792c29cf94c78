// Every snapshot publish is in the audit log: `snapshot export`, `snapshot publish` and `publish --watch` as the CLI,
// the panel's "Publish now" as its operator; one row per facility with its version, target and kid, on both stores.
import { inject } from '../server/http/inject.ts';
import { spawn } from 'node:child_process';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../server/domain/passwords.ts';
import { createPanelHandler } from '../server/panel/handler.ts';
import { loadSigningKey } from '../server/snapshots/format/keygen.ts';
import { folderTarget } from '../server/snapshots/targets/folder.ts';
import { CLI_ACTOR, type AuditRow } from '../server/store/audit.ts';
import { openStore, type Store } from '../server/store/store.ts';
import { BIN, cliInProcess, demoDb, demoJson, REPO, tempDir, writeJson } from './helpers/fixture.ts';
import { snapshotKeyFile } from './helpers/published.ts';
import { startPostgres, type PgServer } from './helpers/postgres.ts';
import { until } from './helpers/wait.ts';

const ORIGIN = 'http://127.0.0.1:8788';
const PASSWORD = 'correct horse battery staple';
const FACILITIES = ['wro-1', 'ber-1', 'zrh-1', 'krk-1'];

let dir: string;
let cleanup: () => void;
let keyFile: string;
let kid: string;
beforeAll(async () => {
  ({ dir, cleanup } = tempDir());
  ({ keyFile, kid } = await snapshotKeyFile(join(dir, 'secrets')));
});
afterAll(() => cleanup?.());

/** The publish rows (and with `action`, that action's instead), oldest first, as [actor, facility, version, target]. */
const published = (rows: AuditRow[], action = 'snapshot.publish') =>
  rows
    .filter((r) => r.action === action)
    .reverse()
    .map((r) => [r.actor, r.facility_id, r.detail.version, r.detail.target]);

/** A logged-in panel on `store` that publishes to `out`; its requests as functions. */
async function panelPublishingTo(store: Store, out: string) {
  await store.addOperator('ops@example.com', await hashPassword(PASSWORD));
  const handle = createPanelHandler({
    store,
    origin: { origin: ORIGIN, secure: false },
    publicUrl: 'http://127.0.0.1:8787',
    keyPrefix: 'svc',
    snapshots: { target: folderTarget(out), key: await loadSigningKey(keyFile), ttlSeconds: 3600 },
  });
  const form = { origin: ORIGIN, 'content-type': 'application/x-www-form-urlencoded' };
  const login = await inject(handle, {
    method: 'POST',
    url: '/login',
    headers: form,
    body: Buffer.from(new URLSearchParams({ email: 'ops@example.com', password: PASSWORD }).toString()),
    remoteAddress: '10.0.0.1',
  });
  const cookie = login.headers['set-cookie']!.split(';')[0]!;
  const get = async (url: string, lang = 'en') =>
    inject(handle, {
      method: 'GET',
      url,
      headers: { cookie, 'accept-language': lang },
      body: Buffer.alloc(0),
      remoteAddress: '::1',
    });
  const csrf = /name="csrf" value="([^"]+)"/.exec(String((await get('/')).body))![1]!;
  const publish = (facility: string) =>
    inject(handle, {
      method: 'POST',
      url: `/facilities/${facility}/snapshots/publish`,
      headers: { ...form, cookie },
      body: Buffer.from(new URLSearchParams({ csrf }).toString()),
      remoteAddress: '::1',
    });
  return { get, publish };
}

describe('snapshot publishes in the audit log (SQLite)', () => {
  it('export, publish and the panel each write one row per facility published, with actor, version and target', async () => {
    const db = demoDb(dir);
    db.db.close();
    const run = (args: string[]) => cliInProcess(db.file, args);
    const exported = join(dir, 'exported');
    expect((await run(['snapshot', 'export', '--out', exported, '--signing-key', keyFile])).code).toBe(0);
    const bucket = join(dir, 'bucket');
    expect((await run(['snapshot', 'publish', '--to', bucket, '--signing-key', keyFile])).code).toBe(0);
    // Nothing changed: nothing uploaded, nothing audited.
    expect((await run(['snapshot', 'publish', '--to', bucket, '--signing-key', keyFile])).code).toBe(0);

    const store = await openStore(db.file);
    try {
      const panel = await panelPublishingTo(store, bucket);
      expect((await panel.publish('ber-1')).status).toBe(303);
      const rows = await store.listAudit();
      // Within one run, facilities are uploaded at once: each run's rows in any order, the runs in order.
      const byFacility = (run: unknown[][]) => run.map((r) => r[1]).sort();
      // The export is an export, each target counts its own versions from 1.
      const exports = published(rows, 'snapshot.export');
      expect(byFacility(exports)).toEqual([...FACILITIES].sort());
      expect(exports.every((r) => r[0] === CLI_ACTOR && r[2] === 1 && r[3] === resolve(exported))).toBe(true);
      const runs = published(rows);
      expect(runs).toHaveLength(FACILITIES.length + 1);
      expect(byFacility(runs.slice(0, 4))).toEqual([...FACILITIES].sort());
      expect(runs.slice(0, 4).every((r) => r[0] === CLI_ACTOR && r[2] === 1 && r[3] === resolve(bucket))).toBe(true);
      expect(runs[4]).toEqual(['ops@example.com', 'ber-1', 2, resolve(bucket)]);
      expect(rows[0]).toMatchObject({ key_id: null, detail: { kid } });

      const cli = await run(['audit', '--facility', 'ber-1', '--json']);
      expect(JSON.parse(cli.stdout).map((r: AuditRow) => [r.action, r.detail.version])).toEqual([
        ['snapshot.publish', 2],
        ['snapshot.publish', 1],
        ['snapshot.export', 1],
      ]);

      // A first export into an empty folder is version 1, however many were made elsewhere; the next there is 2.
      const fresh = join(dir, 'fresh');
      const first = await run(['snapshot', 'export', '--out', fresh, '--signing-key', keyFile, '--json']);
      expect(JSON.parse(first.stdout).results.map((r: { version: number }) => r.version)).toEqual([1, 1, 1, 1]);
      const second = await run(['snapshot', 'export', '--out', fresh, '--signing-key', keyFile, '--json']);
      expect(JSON.parse(second.stdout).results.map((r: { version: number }) => r.version)).toEqual([2, 2, 2, 2]);
      expect((await run(['audit'])).stdout).toMatch(/ops@example\.com\s+snapshot\.publish\s+ber-1/);
      for (const lang of ['en', 'pl', 'de']) {
        const page = await panel.get('/audit', lang);
        expect(page.status).toBe(200);
        expect(String(page.body)).toContain(`<html lang="${lang}">`);
        expect(String(page.body)).toMatch(/ops@example\.com<\/td>\s*<td>snapshot\.publish<\/td>\s*<td>ber-1</);
      }
    } finally {
      await store.close();
    }
  });

  it('publish --watch: its first publish and each change it publishes after an import', async () => {
    const { dir: own, cleanup: done } = tempDir();
    try {
      const db = demoDb(own);
      db.db.close();
      const out = join(own, 'watched');
      const args = ['snapshot', 'publish', '--db', db.file, '--to', out, '--signing-key', keyFile, '--watch'];
      const child = spawn(process.execPath, [BIN, ...args], { cwd: REPO });
      let stderr = '';
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      const exited = new Promise<number | null>((r) => child.once('exit', r));
      const store = await openStore(db.file);
      const audited = (n: number) =>
        until(`${n} publish rows`, async () => {
          const rows = published(await store.listAudit());
          return rows.length >= n && rows;
        });
      try {
        await audited(FACILITIES.length);
        const data = demoJson();
        data.facilities[0].listings[0].price_gross += 1000;
        expect((await cliInProcess(db.file, ['import', writeJson(own, 'raised.json', data)])).code).toBe(0);
        expect((await audited(FACILITIES.length + 1)).at(-1)).toEqual([CLI_ACTOR, 'wro-1', 2, resolve(out)]);
      } finally {
        child.kill('SIGTERM');
        await store.close();
      }
      expect(await exited, stderr).toBe(0);
    } finally {
      done();
    }
  });
});

describe('snapshot publishes in the audit log (PostgreSQL)', () => {
  let server: PgServer;
  beforeAll(async () => {
    server = await startPostgres();
  });
  afterAll(async () => {
    await server?.close();
  });

  it('the CLI and the panel write the same rows to the shared database', async () => {
    const url = await server.newDatabase();
    const run = (args: string[]) => cliInProcess(url, args);
    expect((await run(['import', join(REPO, 'demo', 'data.json')])).code).toBe(0);
    const out = join(dir, 'pg-out');
    expect(
      (await run(['snapshot', 'publish', '--to', out, '--signing-key', keyFile, '--facility', 'wro-1'])).code,
    ).toBe(0);
    const store = await openStore(url);
    try {
      const panel = await panelPublishingTo(store, out);
      expect((await panel.publish('wro-1')).status).toBe(303);
      expect(published(await store.listAudit())).toEqual([
        [CLI_ACTOR, 'wro-1', 1, resolve(out)],
        ['ops@example.com', 'wro-1', 2, resolve(out)],
      ]);
    } finally {
      await store.close();
    }
  });
});
