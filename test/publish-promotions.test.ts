// A promotion that starts or ends changes the API's answers at that instant; a facility's published files are due again
// then (a one-shot publish after it, or --watch waking at it), and unchanged data with no such instant passed keeps its
// bytes, whatever expires_at.
import { generateKeyPairSync } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { listingIdOf } from '../server/domain/facility.ts';
import { parseImport } from '../server/domain/import.ts';
import { FeedPage } from '../server/snapshots/format/feed-format.ts';
import { signingKeyOf } from '../server/snapshots/format/keygen.ts';
import { exportSnapshots } from '../server/snapshots/publish/export.ts';
import { publishSnapshots, type PublishOptions } from '../server/snapshots/publish/publish.ts';
import { watchAndPublish } from '../server/snapshots/publish/watch.ts';
import { folderTarget } from '../server/snapshots/targets/folder.ts';
import type { Db } from '../server/store/db.ts';
import { openPg } from '../server/store/pg/connect.ts';
import { Mirror } from '../server/store/pg/mirror.ts';
import { pgLedger } from '../server/store/pg/snapshot-ledger.ts';
import type { SnapshotLedger } from '../server/store/ledger.ts';
import { openStore } from '../server/store/store.ts';
import { Snapshot } from '../shared/listing.ts';
import { demoDb, tempDir } from './helpers/fixture.ts';
import { startPostgres, type PgServer } from './helpers/postgres.ts';
import { promotion, richJson } from './helpers/rental-info.ts';
import { until } from './helpers/wait.ts';

const key = signingKeyOf(generateKeyPairSync('ed25519').privateKey);
const T0 = new Date('2030-03-01T12:00:00Z');
const MINUTE = 60_000;
const at = (ms: number) => new Date(T0.getTime() + ms);
const iso = (d: Date) => d.toISOString().replace(/\.\d{3}Z$/, 'Z');
const FIRST = listingIdOf('wro-1', 'XS-01');

/** wro-1's first listing with a promotion that ends at T0 + 30 min and one that starts at T0 + 50 min. */
const boundaries = () =>
  richJson([
    promotion({ code: 'ENDING', starts_at: null, ends_at: iso(at(30 * MINUTE)) }),
    promotion({ code: 'SOON', kind: 'amount_off', value: 100, starts_at: iso(at(50 * MINUTE)), ends_at: null }),
  ]);

let dir: string;
let cleanup: () => void;
let db: Db;
beforeEach(() => {
  ({ dir, cleanup } = tempDir());
});
afterEach(() => {
  db?.close();
  cleanup();
});

const out = () => join(dir, 'out');
const pointer = (id: string) => Snapshot.parse(JSON.parse(readFileSync(join(out(), id, 'listings.json'), 'utf8')));
const head = () => FeedPage.parse(JSON.parse(readFileSync(join(out(), 'changes', 'latest.json'), 'utf8')));
const firstDetail = () => pointer('wro-1').listings.find((l) => l.id === FIRST)!;

/** A one-shot publish after each boundary republishes the facility with a feed item; between them nothing is due. */
async function boundariesRepublish(source: Db | SnapshotLedger) {
  const publish = (now: Date, extra: Partial<PublishOptions> = {}) =>
    publishSnapshots(source, {
      target: folderTarget(out()),
      key,
      publicUrl: 'https://l.example',
      ttlSeconds: 2 * 3600,
      now,
      ...extra,
    });
  await publish(T0);
  expect(firstDetail().schedule[0]).toMatchObject({ from_period: 1, promotion: 'ENDING' });
  expect(await publish(at(10 * MINUTE))).toMatchObject({ published: 0, objects: 0 });

  const ended = await publish(at(31 * MINUTE));
  expect(ended).toMatchObject({ published: 1, changed: 1, feed_items: 1 });
  expect(ended.results.map((r) => [r.id, r.version])).toEqual([['wro-1', 2]]);
  expect(firstDetail().promotions.map((p) => p.code)).toEqual(['SOON']);
  expect(firstDetail().schedule[0]!.promotion).toBeNull();
  expect(head().items.at(-1)).toMatchObject({ facility: 'wro-1', version: 2, state: 'updated' });

  expect(await publish(at(40 * MINUTE))).toMatchObject({ published: 0, objects: 0 });
  const started = await publish(at(50 * MINUTE));
  expect(started).toMatchObject({ published: 1, changed: 1, feed_items: 1 });
  expect(firstDetail().schedule[0]!.promotion).toBe('SOON');
  expect(await publish(at(51 * MINUTE))).toMatchObject({ published: 0, objects: 0 });
}

describe('promotion boundaries and published files', () => {
  it('a one-shot publish after a promotion ends or starts republishes that facility, with a feed item', async () => {
    ({ db } = demoDb(dir, parseImport(JSON.stringify(boundaries()), 'promos.json')));
    await boundariesRepublish(db);
  });

  it('unchanged data with no boundary passed keeps its bytes and gets no feed item, however far expires_at moved', async () => {
    // LATER starts after the first export's expires_at but before the second's: carried by both, so neither differs.
    const later = promotion({ code: 'LATER', starts_at: iso(at(7 * 24 * 60 * MINUTE + 60 * MINUTE)), ends_at: null });
    ({ db } = demoDb(dir, parseImport(JSON.stringify(richJson([later])), 'promos.json')));
    const exportAt = (now: Date) =>
      exportSnapshots(db, { outDir: out(), key, publicUrl: 'https://l.example', ttlSeconds: 7 * 86_400, now });
    const content = () => {
      const { facility, listings } = pointer('wro-1');
      return JSON.stringify({ facility, listings });
    };
    await exportAt(T0);
    const first = content();
    expect(firstDetail().promotions.map((p) => p.code)).toEqual(['LATER']);
    const items = head().items.length;
    const again = await exportAt(at(120 * MINUTE));
    expect(again).toMatchObject({ changed: 0, unchanged: 4 });
    expect(content()).toBe(first);
    expect(head().items).toHaveLength(items);
  });

  it('--watch wakes at the next boundary and republishes the facility', { timeout: 30_000 }, async () => {
    const ends = new Date(Math.ceil(Date.now() / 1000) * 1000 + 2000);
    const data = richJson([promotion({ code: 'ENDING', starts_at: null, ends_at: iso(ends) })]);
    ({ db } = demoDb(dir, parseImport(JSON.stringify(data), 'promos.json')));
    const controller = new AbortController();
    const watching = watchAndPublish(db, {
      target: folderTarget(out()),
      key,
      publicUrl: 'https://l.example',
      ttlSeconds: 86_400,
      signal: controller.signal,
      pollMs: 20,
      onPublish: () => {},
      onRetry: () => {},
      onWaiting: () => {},
    });
    try {
      await until('the first publish', () => {
        try {
          return pointer('wro-1').version === 1;
        } catch {
          return false;
        }
      });
      expect(firstDetail().promotions.map((p) => p.code)).toEqual(['ENDING']);
      await until('wro-1 republished after the promotion ended', () => pointer('wro-1').version === 2, {
        timeoutMs: 15_000,
      });
      expect(Date.now()).toBeGreaterThanOrEqual(ends.getTime());
      expect(firstDetail().promotions).toEqual([]);
      expect(pointer('ber-1').version).toBe(1);
    } finally {
      controller.abort();
      await watching;
    }
  });
});

describe('promotion boundaries on PostgreSQL', { timeout: 60_000 }, () => {
  let server: PgServer;
  beforeAll(async () => {
    server = await startPostgres();
  });
  afterAll(async () => {
    await server?.close();
  });

  it('republish the facility after each boundary, as on SQLite', async () => {
    const url = await server.newDatabase();
    const store = await openStore(url);
    await store.applyImport(parseImport(JSON.stringify(boundaries()), 'promos.json'));
    await store.close();
    const pool = await openPg(url);
    const mirror = new Mirror(pool);
    try {
      await boundariesRepublish(pgLedger(pool, mirror, url));
    } finally {
      mirror.close();
      await pool.end();
    }
  });
});
