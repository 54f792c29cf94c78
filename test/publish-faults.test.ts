// Publishing through a store that fails (500/503, slow answers) and a publisher killed mid-way: no pointer ever names a
// version whose objects are missing, the publish completes or says in one line why not, and versions keep growing.
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { parseImport } from '../server/domain/import.ts';
import { openDb } from '../server/store/db.ts';
import { applyImport } from '../server/store/facilities.ts';
import { bigImport } from './helpers/data.ts';
import { startFaultProxy, type FaultProxy } from './helpers/fault-proxy.ts';
import { BIN, REPO, cliAsync } from './helpers/fixture.ts';
import { bucketState, type PointerState } from './helpers/published.ts';
import { proxiedS3ForAll, publishThroughProxy } from './helpers/proxied-s3.ts';
import type { S3Server } from './helpers/s3-server.ts';

const FACILITIES = 60;
const ids = Array.from({ length: FACILITIES }, (_, i) => `fx-${i}`);

let s3: S3Server;
let proxy: FaultProxy;
let dbFile: string;
let keyFile: string;

function importData(priceShift: number, file = dbFile) {
  const data = bigImport('fx', FACILITIES, 12);
  for (const f of data.facilities) for (const l of f.listings) l.price_gross += priceShift;
  const db = openDb(file);
  applyImport(db, parseImport(JSON.stringify(data), 'generated'));
  db.close();
}

const args = (prefix: string, endpoint = proxy.endpoint, concurrency = 4) => [
  ...publishThroughProxy({ s3, proxy, dbFile, keyFile }, prefix, endpoint),
  '--concurrency',
  String(concurrency),
];

/** The invariant after any run, finished or not: every pointer present verifies against the version it names. */
async function consistent(prefix: string): Promise<Record<string, PointerState>> {
  const state = await bucketState(s3, prefix, ids);
  for (const [id, p] of Object.entries(state)) expect(p.verifies, `${prefix}/${id} v${p.version}`).toBe(true);
  return state;
}

proxiedS3ForAll(
  (t) => ({ s3, proxy, dbFile, keyFile } = t),
  (file) => importData(0, file),
);

describe('snapshot publish against a failing store', { timeout: 120_000 }, () => {
  for (const when of ['before', 'after'] as const) {
    it(`500/503 for a third of requests (${when} the store applies them): completes or fails in one line, never inconsistent`, async () => {
      const prefix = `faults-${when}`;
      proxy.setPlan({ failRate: 0.33, statuses: [500, 503], when, seed: when === 'before' ? 7 : 11 });
      const r = await cliAsync(args(prefix), { env: s3.env });
      expect(proxy.stats.failed).toBeGreaterThan(0);
      if (r.status !== 0) {
        expect(r.status).toBe(1);
        expect(
          r.stderr
            .trim()
            .split('\n')
            .filter((l) => l.startsWith('error:')),
        ).toHaveLength(1);
      }
      await consistent(prefix);
      proxy.setPlan({});
      const again = await cliAsync(args(prefix), { env: s3.env });
      expect(again.status).toBe(0);
      expect(Object.keys(await consistent(prefix))).toHaveLength(FACILITIES);
    });
  }

  it('slow answers: the publish waits them out', async () => {
    proxy.setPlan({ slowRate: 0.3, slowMs: 150, seed: 3 });
    const r = await cliAsync(args('slow'), { env: s3.env });
    expect(proxy.stats.slowed).toBeGreaterThan(0);
    expect(r.status).toBe(0);
    expect(Object.keys(await consistent('slow'))).toHaveLength(FACILITIES);
    proxy.setPlan({});
  });

  it('a store that never answers: each attempt times out, 5 in all, then exit 1 in one line and the lock released', async () => {
    const prefix = 'stalled';
    const indexGets = (method: string, path: string) => method === 'GET' && path.includes(`/${prefix}/index.json`);
    proxy.setPlan({ stallRate: 1, match: indexGets });
    const r = await cliAsync(args(prefix), { env: { ...s3.env, S3_REQUEST_TIMEOUT: '0.3' } });
    expect(r.status).toBe(1);
    // The facilities' progress lines, then the one that says why it stopped.
    const lines = r.stderr.trim().split('\n');
    expect(lines.filter((l) => !/^published \d+\/\d+ facilities/.test(l))).toEqual([lines.at(-1)]);
    expect(lines.at(-1)).toMatch(
      /^error: cannot reach http:\/\/127\.0\.0\.1:\d+ \(no answer within 0\.3 s\) for GET s3:\/\/listings\/stalled\/index\.json after 5 attempts/,
    );
    expect(proxy.stats.stalled).toBe(5);
    expect(await s3.keys(`${prefix}/.publish-lock/`)).toEqual([]);
    proxy.setPlan({});
    // The next publisher is not kept out by a lease that a hung one renews.
    expect((await cliAsync(args(prefix), { env: s3.env })).status).toBe(0);
  });

  it('answers whose body stops after the headers: each is retried after S3_REQUEST_TIMEOUT, and the publish completes', async () => {
    const prefix = 'stalled-bodies';
    expect((await cliAsync(args(prefix), { env: s3.env })).status).toBe(0);
    importData(50); // every facility changes, so the publish reads keys.json, index.json and the feed's head
    const stalled = new Set<string>();
    const firstGetOfEach = (method: string, path: string) => {
      if (method !== 'GET' || !/\/(keys\.json|index\.json|latest\.json)(\?|$)/.test(path) || stalled.has(path))
        return false;
      stalled.add(path);
      return true;
    };
    proxy.setPlan({ stallBodyRate: 1, match: firstGetOfEach });
    const r = await cliAsync(args(prefix), { env: { ...s3.env, S3_REQUEST_TIMEOUT: '0.3' } });
    expect(r.stderr).not.toMatch(/^error:/m);
    expect(r.status).toBe(0);
    expect(proxy.stats.stalledBodies).toBe(3);
    proxy.setPlan({});
    const state = await consistent(prefix);
    expect(Object.values(state).every((p) => p.version === 2)).toBe(true);
  });

  it('a store gone mid-publish: one line that says the attempts, and why fewer than 5 when the shared retries ran out', async () => {
    const prefix = 'gone';
    importData(70); // every facility changes: 60 facilities of uploads, 16 at once
    let dropped: Promise<void> | undefined;
    const gone = await startFaultProxy(s3.endpoint, {
      match: (method) => {
        if (method === 'PUT' && gone.stats.total >= 40) dropped ??= gone.stop();
        return false;
      },
    });
    try {
      const r = await cliAsync(args(prefix, gone.endpoint, 16), { env: s3.env });
      expect(r.status).toBe(1);
      const errors = r.stderr.split('\n').filter((l) => l.startsWith('error:'));
      expect(errors).toHaveLength(1);
      expect(errors[0]).toMatch(
        /^error: cannot reach http:\/\/127\.0\.0\.1:\d+ \(E[A-Z]+\) for \w+ \S+ after (5 attempts|[1-4] attempts \(of 5: the retries this publish's requests share ran out\))$/,
      );
    } finally {
      await (dropped ?? gone.stop());
    }
    await consistent(prefix);
  });

  it('SIGKILL mid-publish, then publish again: consistent at every step, versions only grow', async () => {
    const prefix = 'killed';
    expect((await cliAsync(args(prefix), { env: s3.env })).status).toBe(0);
    const before = await consistent(prefix);
    importData(100); // every facility changes

    const child = spawn(process.execPath, [BIN, ...args(prefix)], {
      cwd: REPO,
      env: { ...process.env, ...s3.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
      if (/^published \d+\/\d+ facilities/m.test(stderr)) child.kill('SIGKILL'); // the first progress line: 10% done
    });
    const signal = await new Promise<NodeJS.Signals | null>((resolve) =>
      child.on('exit', (_code, sig) => resolve(sig)),
    );
    expect(signal).toBe('SIGKILL');
    const middle = await consistent(prefix);
    const moved = ids.filter((id) => middle[id]!.version > before[id]!.version);
    expect(moved.length).toBeGreaterThan(0);
    expect(moved.length).toBeLessThan(FACILITIES);

    // Its lock object is left behind; this machine sees that its process is gone and takes over.
    const again = await cliAsync(args(prefix), { env: s3.env });
    expect(again.stderr).not.toMatch(/error|warn|AWS/i);
    expect(again.status).toBe(0);
    const after = await consistent(prefix);
    for (const id of ids) {
      expect(after[id]!.version).toBeGreaterThanOrEqual(middle[id]!.version);
      expect(after[id]!.version).toBeGreaterThan(before[id]!.version);
    }
    expect(await s3.keys(`${prefix}/.publish-lock/`)).toEqual([]);
  });
});
