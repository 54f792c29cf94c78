// `snapshot follow --watch` as a library: a 304 on the feed's head while nothing moved, a publish picked up, backoff on refusals.
import { createHash, generateKeyPairSync } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseImport } from '../server/domain/import.ts';
import type { ListingsError } from '../server/errors.ts';
import type { Db } from '../server/store/db.ts';
import { applyImport } from '../server/store/facilities.ts';
import { followOnce, type FollowSummary } from '../server/snapshots/follow/follow.ts';
import { followAndWatch } from '../server/snapshots/follow/watch.ts';
import { signingKeyOf } from '../server/snapshots/format/keygen.ts';
import { publishSnapshots } from '../server/snapshots/publish/publish.ts';
import { folderTarget } from '../server/snapshots/targets/folder.ts';
import { demoDb, demoJson, tempDir } from './helpers/fixture.ts';

const key = signingKeyOf(generateKeyPairSync('ed25519').privateKey);
let dir: string;
let cleanup: () => void;
let db: Db;
let server: Server;
let base: string;
/** Each request's path and status, as the server answered it. */
let answered: string[];
/** While set, the host answers 503 to everything. */
let down: boolean;

const out = () => join(dir, 'out');
const publish = () =>
  publishSnapshots(db, { target: folderTarget(out()), key, publicUrl: 'https://l.example', ttlSeconds: 86_400 });

beforeEach(async () => {
  ({ dir, cleanup } = tempDir());
  ({ db } = demoDb(dir));
  await publish();
  answered = [];
  down = false;
  // A static host with strong ETags and If-None-Match, as a CDN answers.
  server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url!, 'http://x').pathname);
    if (down) return res.writeHead(503).end();
    let bytes: Buffer;
    try {
      bytes = readFileSync(join(out(), path));
    } catch {
      answered.push(`404 ${path}`);
      return res.writeHead(404).end();
    }
    const etag = `"${createHash('sha256').update(bytes).digest('hex').slice(0, 16)}"`;
    const status = req.headers['if-none-match'] === etag ? 304 : 200;
    answered.push(`${status} ${path}`);
    res.writeHead(status, { etag }).end(status === 200 ? bytes : undefined);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});
afterEach(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
  db.close();
  cleanup();
});

async function until<T>(probe: () => T | undefined, what: string, ms = 15_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`no ${what} within ${ms} ms`);
    await new Promise((r) => setImmediate(r));
  }
}

describe('snapshot follow --watch', () => {
  it('asks with If-None-Match and gets a 304 while nothing moved', async () => {
    const opts = { base, keys: `${base}keys.json`, dir: join(dir, 'mirror') };
    expect(await followOnce(opts)).toMatchObject({ mode: 'index', fetched: 4 });
    answered = [];
    expect(await followOnce(opts)).toMatchObject({ mode: 'unchanged', reads: ['changes/latest.json'] });
    expect(answered).toEqual(['304 /changes/latest.json']);
  });

  it('picks up a publish, and backs off (doubling) while the source refuses, applying nothing', async () => {
    const controller = new AbortController();
    const runs: FollowSummary[] = [];
    const retries: [string, number][] = [];
    const watching = followAndWatch({
      base,
      keys: `${base}keys.json`,
      dir: join(dir, 'mirror'),
      signal: controller.signal,
      pollMs: 20,
      onFollow: (s) => runs.push(s),
      onRetry: (err: ListingsError, ms: number) => retries.push([err.message, ms]),
    });
    try {
      await until(() => runs.find((r) => r.mode === 'index'), 'first run');
      const f = demoJson().facilities.find((x) => x.id === 'wro-1');
      f.listings[0].price_gross = 4242;
      applyImport(db, parseImport(JSON.stringify({ facilities: [f] }), 'test'));
      await publish();
      expect(await until(() => runs.find((r) => r.mode === 'feed'), 'the publish')).toMatchObject({ fetched: 1 });

      // The host fails: every run is refused, nothing is applied, and the wait doubles until it is back.
      down = true;
      const g = demoJson().facilities.find((x) => x.id === 'ber-1');
      g.listings[0].price_gross = 4343;
      applyImport(db, parseImport(JSON.stringify({ facilities: [g] }), 'test'));
      await publish();
      const before = runs.length;
      await until(() => (retries.length >= 2 ? true : undefined), 'two refusals');
      expect(retries[0]![0]).toBe('changes/latest.json: HTTP 503');
      expect(retries[1]![1]).toBe(retries[0]![1] * 2);
      expect(runs.length).toBe(before);
      down = false;
      expect(await until(() => runs.slice(before).find((r) => r.mode === 'feed'), 'recovery')).toMatchObject({
        fetched: 1,
      });
    } finally {
      controller.abort();
      await watching;
    }
  });
});
