// A publish that fails or dies after a facility's pointer is written but before index.json and the feed: the next
// publish (or --watch's retry) brings the index, its signature and the feed up to the pointers, and a follower sees it.
import { generateKeyPairSync } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseImport } from '../server/domain/import.ts';
import { ListingsError } from '../server/errors.ts';
import { openDb, type Db } from '../server/store/db.ts';
import { applyImport } from '../server/store/facilities.ts';
import { followOnce } from '../server/snapshots/follow/follow.ts';
import { FeedPage, IndexFile } from '../server/snapshots/format/feed-format.ts';
import { signingKeyOf } from '../server/snapshots/format/keygen.ts';
import { verifySigned } from '../server/snapshots/format/verify.ts';
import { publishSnapshots, type PublishOptions } from '../server/snapshots/publish/publish.ts';
import { watchAndPublish } from '../server/snapshots/publish/watch.ts';
import { folderTarget } from '../server/snapshots/targets/folder.ts';
import type { Target } from '../server/snapshots/targets/target.ts';
import type { FaultProxy } from './helpers/fault-proxy.ts';
import { cliAsync, demoDb, demoJson, tempDir } from './helpers/fixture.ts';
import { proxiedS3ForAll, publishThroughProxy } from './helpers/proxied-s3.ts';
import type { S3Server } from './helpers/s3-server.ts';
import { until } from './helpers/wait.ts';

const key = signingKeyOf(generateKeyPairSync('ed25519').privateKey);
const T0 = new Date('2030-03-01T12:00:00Z');
const at = (minutes: number) => new Date(T0.getTime() + minutes * 60_000);

function changePrice(db: Db, facility: string, gross: number) {
  const f = demoJson().facilities.find((x) => x.id === facility);
  f.listings[0].price_gross = gross;
  applyImport(db, parseImport(JSON.stringify({ facilities: [f] }), 'test'));
}

/** A folder target whose writes of the named objects fail, as a store answering 500 would, while `failing` holds. */
function failingTarget(folder: string, failing: Set<string>): Target {
  const inner = folderTarget(folder);
  return {
    ...inner,
    async put(key, bytes, meta) {
      if (failing.has(key)) throw new ListingsError('s3_failed', `PUT ${key}: injected failure`);
      return inner.put(key, bytes, meta);
    },
  };
}

const parsed = <T>(schema: { parse(v: unknown): T }, file: string): T =>
  schema.parse(JSON.parse(readFileSync(file, 'utf8')));
/** The same, or undefined while the file is not there yet. */
const parsedIfAny = <T>(schema: { parse(v: unknown): T }, file: string): T | undefined =>
  existsSync(file) ? parsed(schema, file) : undefined;

/** The file verifies with the .sig beside it and the target's keys. */
function signedOk(out: string, name: string): boolean {
  const bytes = readFileSync(join(out, name));
  const sig = readFileSync(join(out, `${name}.sig`), 'utf8');
  return verifySigned(bytes, sig, readFileSync(join(out, 'keys.json'), 'utf8'), name).ok;
}

describe('a publish cut short after the pointers', () => {
  let dir: string;
  let cleanup: () => void;
  let db: Db;
  let dbFile: string;
  const out = () => join(dir, 'out');
  const publish = (target: Target, now: Date, extra: Partial<PublishOptions> = {}) =>
    publishSnapshots(db, { target, key, publicUrl: 'https://l.example', ttlSeconds: 2 * 3600, now, ...extra });
  const follow = (now: Date) =>
    followOnce({ base: out(), keys: join(out(), 'keys.json'), dir: join(dir, 'mirror'), now });
  const indexOf = () => parsed(IndexFile, join(out(), 'index.json'));
  const headOf = () => parsed(FeedPage, join(out(), 'changes', 'latest.json'));

  beforeEach(() => {
    ({ dir, cleanup } = tempDir());
    ({ db, file: dbFile } = demoDb(dir));
  });
  afterEach(() => {
    db.close();
    cleanup();
  });

  for (const blocked of ['index.json.sig', 'index.json', 'changes/latest.json.sig', 'changes/latest.json']) {
    it(`catches up on the next publish when writing ${blocked} failed`, async () => {
      await publish(folderTarget(out()), T0);
      expect(await follow(T0)).toMatchObject({ mode: 'index', fetched: 4 });
      changePrice(db, 'krk-1', 12_345);
      await expect(publish(failingTarget(out(), new Set([blocked])), at(1))).rejects.toMatchObject({
        code: 's3_failed',
      });
      expect(JSON.parse(readFileSync(join(out(), 'krk-1', 'listings.json'), 'utf8')).version).toBe(2);

      const s = await publish(folderTarget(out()), at(2));
      expect(s).toMatchObject({ published: 0, feed_items: 1 });
      expect(s.objects).toBeGreaterThan(0);
      expect(indexOf().facilities.find((f) => f.id === 'krk-1')!.version).toBe(2);
      expect(
        headOf()
          .items.filter((i) => i.facility === 'krk-1')
          .map((i) => i.version),
      ).toEqual([1, 2]);
      for (const name of ['index.json', 'changes/latest.json']) expect(signedOk(out(), name)).toBe(true);
      const followed = await follow(at(3));
      expect(followed).toMatchObject({ mode: 'feed', fetched: 1 });
      expect(JSON.parse(readFileSync(join(dir, 'mirror', 'krk-1', 'listings.json'), 'utf8')).version).toBe(2);

      // Caught up: the next publish has nothing to do, and the feed names the change once.
      expect(await publish(folderTarget(out()), at(4))).toMatchObject({ objects: 0, feed_items: 0 });
      expect(headOf().items.filter((i) => i.facility === 'krk-1')).toHaveLength(2);
    });
  }

  it('catches up on a folder whose index.json.sig a directory blocked, once it is gone', async () => {
    await publish(folderTarget(out()), T0);
    changePrice(db, 'wro-1', 23_456);
    rmSync(join(out(), 'index.json.sig'));
    mkdirSync(join(out(), 'index.json.sig', 'x'), { recursive: true });
    await expect(publish(folderTarget(out()), at(1))).rejects.toThrow();
    rmSync(join(out(), 'index.json.sig'), { recursive: true });
    expect(await publish(folderTarget(out()), at(2))).toMatchObject({ published: 0, feed_items: 1 });
    expect(indexOf().facilities.find((f) => f.id === 'wro-1')!.version).toBe(2);
    expect(signedOk(out(), 'index.json')).toBe(true);
  });

  it('with --watch: the retry after a failed index write brings the index and the feed up', async () => {
    const failing = new Set<string>();
    const controller = new AbortController();
    const retries: string[] = [];
    const watching = watchAndPublish(db, {
      target: failingTarget(out(), failing),
      key,
      publicUrl: 'https://l.example',
      ttlSeconds: 86_400,
      signal: controller.signal,
      pollMs: 20,
      firstBackoffMs: 20,
      maxBackoffMs: 100,
      onPublish: () => {},
      onRetry: (err) => retries.push(err.message),
      onWaiting: () => {},
    });
    try {
      const head = () => parsedIfAny(FeedPage, join(out(), 'changes', 'latest.json'));
      await until('the first publish', () => head()?.items.length === 4);
      failing.add('index.json.sig');
      const other = openDb(dbFile); // another process's import, as the watch notices one
      changePrice(other, 'ber-1', 34_567);
      other.close();
      await until('a failed publish', () => retries.length > 0);
      expect(JSON.parse(readFileSync(join(out(), 'ber-1', 'listings.json'), 'utf8')).version).toBe(2);
      failing.clear();
      await until(
        'the index to name ber-1 v2',
        () => indexOf().facilities.some((f) => f.id === 'ber-1' && f.version === 2),
        { timeoutMs: 10_000 },
      );
      await until('the feed to name ber-1 v2', () =>
        head()?.items.some((i) => i.facility === 'ber-1' && i.version === 2),
      );
    } finally {
      controller.abort();
      await watching;
    }
  });
});

describe('on S3, a 500 for index.json.sig', { timeout: 120_000 }, () => {
  let s3: S3Server;
  let proxy: FaultProxy;
  let dir: string;
  let dbFile: string;
  let keyFile: string;
  proxiedS3ForAll((t) => ({ s3, proxy, dir, dbFile, keyFile } = t));

  const args = () => publishThroughProxy({ s3, proxy, dbFile, keyFile }, 'cu');
  const follow = () =>
    followOnce({ base: s3.objectUrl('cu/'), keys: s3.objectUrl('cu/keys.json'), dir: join(dir, 'mirror') });

  it('is caught up by the next publish, and a follower sees the change', async () => {
    expect((await cliAsync(args(), { env: s3.env })).status).toBe(0);
    expect(await follow()).toMatchObject({ mode: 'index', fetched: 4 });
    const db = openDb(dbFile);
    changePrice(db, 'zrh-1', 45_678);
    db.close();

    proxy.setPlan({ failRate: 1, statuses: [500], match: (m, p) => m === 'PUT' && p.includes('/cu/index.json.sig') });
    const failed = await cliAsync(args(), { env: s3.env });
    proxy.setPlan({});
    expect(failed.status).toBe(1);
    expect(failed.stderr).toMatch(/index\.json\.sig/);

    const again = await cliAsync(args(), { env: s3.env });
    expect(again.status).toBe(0);
    expect(again.stdout).not.toMatch(/nothing to publish/);
    const followed = await follow();
    expect(followed).toMatchObject({ mode: 'feed', fetched: 1 });
    expect(JSON.parse(readFileSync(join(dir, 'mirror', 'zrh-1', 'listings.json'), 'utf8')).version).toBe(2);
  });
});
