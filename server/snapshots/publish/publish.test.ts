// publishSnapshots over a real SQLite file and a folder target: only what changed, re-signing at half TTL, key rotation.
import { generateKeyPairSync } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { demoDb, demoDbEachTest, demoJson, tempDir } from '../../../test/helpers/fixture.ts';
import { parseImport } from '../../domain/import.ts';
import { Jwks, Snapshot } from '../../../shared/listing.ts';
import { openDb, type Db } from '../../store/db.ts';
import { applyImport } from '../../store/facilities.ts';
import { jwkOf, publicPemOf, signingKeyOf, type SigningKey } from '../format/keygen.ts';
import { Tombstone } from '../format/feed-format.ts';
import { publishSnapshots, type PublishOptions } from './publish.ts';
import { watchAndPublish } from './watch.ts';
import { withdrawFacility } from './withdraw.ts';
import { until } from '../../../test/helpers/wait.ts';
import { folderTarget } from '../targets/folder.ts';
import type { ObjectMeta, Target } from '../targets/target.ts';
import { verifySnapshot } from '../format/verify.ts';

const newKey = (): SigningKey => signingKeyOf(generateKeyPairSync('ed25519').privateKey);
const T0 = new Date('2030-03-01T12:00:00Z');
const HOUR = 3600_000;
const at = (ms: number) => new Date(T0.getTime() + ms);

let dir: string;
let db: Db;
let dbFile: string;
const keyA = newKey();
demoDbEachTest((t) => ({ dir, db, file: dbFile } = t));

const out = () => join(dir, 'out');

/** A folder target that also records every object it is asked to write. */
function countingTarget(folder = out()): Target & { puts: { key: string; meta: ObjectMeta }[] } {
  const inner = folderTarget(folder);
  const puts: { key: string; meta: ObjectMeta }[] = [];
  return { ...inner, puts, put: (key, bytes, meta) => (puts.push({ key, meta }), inner.put(key, bytes, meta)) };
}

const publish = (target: Target, extra: Partial<PublishOptions> = {}, onDb: Db = db) =>
  publishSnapshots(onDb, {
    target,
    key: keyA,
    publicUrl: 'https://listings.example',
    ttlSeconds: 2 * 3600,
    now: T0,
    ...extra,
  });
const pointer = (id: string) => Snapshot.parse(JSON.parse(readFileSync(join(out(), id, 'listings.json'), 'utf8')));
const kids = () => Jwks.parse(JSON.parse(readFileSync(join(out(), 'keys.json'), 'utf8'))).keys.map((k) => k.kid);

function changePrice(facility: string, code: string, gross: number, onDb: Db = db) {
  const data = demoJson();
  const f = data.facilities.find((x) => x.id === facility);
  f.listings.find((l: { code: string }) => l.code === code).price_gross = gross;
  applyImport(onDb, parseImport(JSON.stringify({ facilities: [f] }), 'test'));
}

describe('publishSnapshots', () => {
  it('writes each version immutable first, then the pointer, with the contract headers', async () => {
    const target = countingTarget();
    const s = await publish(target);
    expect(s).toMatchObject({
      facilities: 4,
      published: 4,
      skipped: 0,
      objects: 22,
      keys_updated: true,
      feed_items: 4,
    });
    const wro = target.puts.filter((p) => p.key.startsWith('wro-1/')).map((p) => p.key);
    // The immutable pair (in either order, they are written at once), then the pointer's .sig, then its listings.json.
    expect(wro.slice(0, 2).sort()).toEqual(['wro-1/v1/listings.json', 'wro-1/v1/listings.json.sig']);
    expect(wro.slice(2)).toEqual(['wro-1/listings.json.sig', 'wro-1/listings.json']);
    expect(target.puts.slice(0, 2).map((p) => p.key)).toEqual([`keys/${keyA.kid}.pem`, 'keys.json']); // keys before any listing
    // The index and the feed's head last, each .sig before its file: they name what was written before them.
    expect(target.puts.slice(-4).map((p) => p.key)).toEqual([
      'index.json.sig',
      'index.json',
      'changes/latest.json.sig',
      'changes/latest.json',
    ]);
    const metaOf = (key: string) => target.puts.find((p) => p.key === key)!.meta;
    expect(metaOf('wro-1/v1/listings.json')).toEqual({
      contentType: 'application/json',
      cacheControl: 'public, max-age=31536000, immutable',
    });
    expect(metaOf('wro-1/listings.json')).toEqual({
      contentType: 'application/json',
      cacheControl: 'public, max-age=60, stale-while-revalidate=300, stale-if-error=86400',
    });
    expect(metaOf('keys.json').contentType).toBe('application/jwk-set+json');
    expect(metaOf(`keys/${keyA.kid}.pem`).contentType).toBe('application/x-pem-file');
  });

  it('takes turns with another publish to the same target in this process, instead of meeting its lock', async () => {
    const [first, second] = await Promise.all([
      publish(folderTarget(out()), { facilityIds: ['wro-1'], force: true }),
      publish(folderTarget(out()), { facilityIds: ['wro-1'], force: true }),
    ]);
    expect([first.results[0]!.version, second.results[0]!.version]).toEqual([1, 2]);
    expect(pointer('wro-1').version).toBe(2);
  });

  it('uploads nothing, not even a lock, when nothing changed and every version is fresh', async () => {
    await publish(countingTarget());
    const again = countingTarget();
    const s = await publish(again, { now: at(HOUR / 2) });
    expect(s).toMatchObject({ published: 0, skipped: 4, objects: 0, keys_updated: false });
    expect(again.puts).toEqual([]);
    expect(existsSync(join(out(), '.export.lock'))).toBe(false);
  });

  it('publishes one changed facility as its four objects, the index and the feed head, with the next version', async () => {
    await publish(countingTarget());
    changePrice('krk-1', 'M-2', 12345);
    const target = countingTarget();
    const s = await publish(target, { now: at(60_000) });
    expect(s).toMatchObject({ published: 1, skipped: 3, objects: 8, changed: 1, feed_items: 1 });
    expect(target.puts.map((p) => p.key).sort()).toEqual([
      'changes/latest.json',
      'changes/latest.json.sig',
      'index.json',
      'index.json.sig',
      'krk-1/listings.json',
      'krk-1/listings.json.sig',
      'krk-1/v2/listings.json',
      'krk-1/v2/listings.json.sig',
    ]);
    expect(pointer('krk-1').version).toBe(2);
    expect(pointer('wro-1').version).toBe(1);
  });

  it('uploads nothing after an import of the same data, and re-publishes what a new public URL changes', async () => {
    await publish(countingTarget());
    applyImport(db, parseImport(JSON.stringify(demoJson()), 'again')); // every facility's revision rises, no data changes
    expect(await publish(countingTarget(), { now: at(60_000) })).toMatchObject({ published: 0, objects: 0 });
    // Rent links of facilities without a rental page template point at the server: a new URL changes their Details.
    const moved = await publish(countingTarget(), { now: at(120_000), publicUrl: 'https://moved.example' });
    const withoutTemplate = demoJson()
      .facilities.filter((f) => !f.rental_page_url)
      .map((f) => f.id)
      .sort();
    expect(withoutTemplate.length).toBeGreaterThan(0);
    expect(moved.results.map((r) => r.id).sort()).toEqual(withoutTemplate);
  });

  it('re-signs an unchanged facility once less than half its TTL is left', async () => {
    await publish(countingTarget());
    expect((await publish(countingTarget(), { now: at(HOUR - 1000) })).published).toBe(0); // 1 h of 2 h not yet gone
    const s = await publish(countingTarget(), { now: at(HOUR + 1000) });
    expect(s).toMatchObject({ published: 4, changed: 0, unchanged: 4 });
    expect(pointer('wro-1')).toMatchObject({ version: 2, expires_at: '2030-03-01T15:00:01Z' });
  });

  it('lifts the version above what the target holds when another machine published there', async () => {
    await publish(countingTarget());
    await publish(countingTarget(), { force: true, now: at(1000) });
    await publish(countingTarget(), { force: true, now: at(2000) }); // the target now holds v3
    const other = tempDir();
    try {
      const { db: otherDb } = demoDb(other.dir); // another machine: its own database and counter, same data
      // Same data, same key, fresh: adopted as is, nothing uploaded.
      expect(await publish(countingTarget(), { now: at(3000) }, otherDb)).toMatchObject({ published: 0, objects: 0 });
      changePrice('wro-1', 'M-07', 40000, otherDb);
      const s = await publish(countingTarget(), { now: at(4000) }, otherDb);
      expect(s.results.map((r) => [r.id, r.version])).toEqual([['wro-1', 4]]);
      otherDb.close();
    } finally {
      other.cleanup();
    }
  });

  it('after a key rotation re-signs everything with the new key and keeps the old kid until its last version expires', async () => {
    await publish(countingTarget());
    const keyB = newKey();
    const rotated = await publish(countingTarget(), { key: keyB, now: at(10 * 60_000) });
    expect(rotated).toMatchObject({ published: 4, keys_updated: true });
    expect(kids()).toEqual([keyB.kid, keyA.kid]); // A signed versions that expire at T0 + 2 h
    const keysJson = readFileSync(join(out(), 'keys.json'), 'utf8');
    const bytes = readFileSync(join(out(), 'wro-1', 'v1', 'listings.json'));
    expect(
      verifySnapshot(bytes, readFileSync(join(out(), 'wro-1', 'v1', 'listings.json.sig'), 'utf8'), keysJson, {
        now: at(HOUR),
      }).ok,
    ).toBe(true);

    expect((await publish(countingTarget(), { key: keyB, now: at(2 * HOUR - 1000) })).keys_updated).toBe(false);
    expect(kids()).toEqual([keyB.kid, keyA.kid]);
    const after = countingTarget();
    const s = await publish(after, { key: keyB, now: at(2 * HOUR + 1000) }); // A's last version has expired
    expect(kids()).toEqual([keyB.kid]);
    expect(after.puts.map((p) => p.key)).toContain('keys.json');
    expect(s.keys_updated).toBe(true);
  });

  it('keeps a kid it never published with (written by another machine), and refuses a keys.json that is not a JWKS', async () => {
    const stranger = newKey();
    await publish(countingTarget(), { key: stranger });
    const fresh = tempDir();
    try {
      const { db: otherDb } = demoDb(fresh.dir);
      await publish(countingTarget(), { now: at(5 * HOUR) }, otherDb);
      expect(kids()).toEqual([keyA.kid, stranger.kid]);
      otherDb.close();
    } finally {
      fresh.cleanup();
    }
    writeFileSync(join(out(), 'keys.json'), '{"keys": "nope"}');
    changePrice('wro-1', 'M-07', 12345);
    await expect(publish(countingTarget(), { now: at(6 * HOUR) })).rejects.toMatchObject({ code: 'invalid_keys_file' });
  });

  it('stops starting facilities once its signal aborts, and says so', async () => {
    const controller = new AbortController();
    const s = await publish(countingTarget(), {
      concurrency: 1,
      signal: controller.signal,
      onProgress: () => controller.abort(),
    });
    expect(s).toMatchObject({ published: 1, stopped: true });
    expect(readdirSync(out()).filter((n) => /-\d$/.test(n))).toHaveLength(1);
    const reopened = openDb(dbFile);
    // The one facility published is recorded: the next publish does the other three.
    expect((await publish(countingTarget(), { now: at(1000) }, reopened)).published).toBe(3);
    reopened.close();
  });

  it('writes the PEM of a new key that keys.json already lists, as a rotation by the docs does', async () => {
    await publish(countingTarget());
    const keyB = newKey();
    // Step 2 of a rotation: the operator adds the new key's JWK to keys.json, then publishes with it.
    const jwks = Jwks.parse(JSON.parse(readFileSync(join(out(), 'keys.json'), 'utf8')));
    writeFileSync(join(out(), 'keys.json'), JSON.stringify({ keys: [...jwks.keys, jwkOf(keyB.publicKey)] }, null, 2));
    await publish(countingTarget(), { key: keyB, now: at(60_000) });
    expect(readFileSync(join(out(), 'keys', `${keyB.kid}.pem`), 'utf8')).toBe(publicPemOf(keyB.publicKey));
    expect(kids()).toEqual([keyB.kid, keyA.kid]);

    // A listed key whose PEM went missing gets it back with the next publish that writes anything.
    rmSync(join(out(), 'keys', `${keyA.kid}.pem`));
    changePrice('wro-1', 'M-07', 23456);
    await publish(countingTarget(), { key: keyB, now: at(120_000) });
    expect(readFileSync(join(out(), 'keys', `${keyA.kid}.pem`), 'utf8')).toBe(publicPemOf(keyA.publicKey));
  });

  it('signs a tombstone again once less than half its TTL is left, keeping when the facility was withdrawn', async () => {
    await publish(countingTarget());
    const withdraw = { target: folderTarget(out()), key: keyA, facilityId: 'zrh-1', ttlSeconds: 2 * 3600 };
    await withdrawFacility(db, { ...withdraw, now: at(60_000) });
    const tombstone = () => Tombstone.parse(JSON.parse(readFileSync(join(out(), 'zrh-1', 'listings.json'), 'utf8')));
    const first = tombstone();
    const items = () => JSON.parse(readFileSync(join(out(), 'changes', 'latest.json'), 'utf8')).items as unknown[];
    const itemsBefore = items().length;
    await publish(countingTarget(), { now: at(HOUR + 30_000) }); // the facilities' half TTL, not yet the tombstone's
    expect(tombstone()).toEqual(first);

    const s = await publish(countingTarget(), { now: at(HOUR + 2 * 60_000) });
    expect(s.results.map((r) => r.id)).not.toContain('zrh-1');
    expect(tombstone()).toMatchObject({
      state: 'withdrawn',
      version: first.version + 1,
      withdrawn_at: first.withdrawn_at,
      generated_at: '2030-03-01T13:02:00Z',
      expires_at: '2030-03-01T15:02:00Z',
    });
    // Past the first tombstone's expiry a pinned reader still meets "withdrawn", not "expired".
    const bytes = readFileSync(join(out(), 'zrh-1', 'listings.json'));
    const sig = readFileSync(join(out(), 'zrh-1', 'listings.json.sig'), 'utf8');
    const r = verifySnapshot(bytes, sig, readFileSync(join(out(), 'keys.json'), 'utf8'), {
      now: at(2 * HOUR + 5 * 60_000),
    });
    expect(r).toMatchObject({ ok: false, reason: 'withdrawn' });
    // No second withdrawn item, and the index still leaves it out.
    expect(items().length).toBe(itemsBefore);
    const index = JSON.parse(readFileSync(join(out(), 'index.json'), 'utf8')) as { facilities: { id: string }[] };
    expect(index.facilities.map((f) => f.id)).not.toContain('zrh-1');
  });

  it('publishes a target emptied since (its facilities, and its withdrawn one as a tombstone), counting it apart', async () => {
    await publish(countingTarget());
    await withdrawFacility(db, {
      target: folderTarget(out()),
      key: keyA,
      facilityId: 'zrh-1',
      ttlSeconds: 7200,
      now: T0,
    });
    expect(await publish(countingTarget())).toMatchObject({ published: 0, skipped: 3, withdrawn: 1, objects: 0 });

    rmSync(out(), { recursive: true });
    const s = await publish(countingTarget());
    expect(s).toMatchObject({ published: 3, skipped: 0, withdrawn: 1, tombstones: 1 });
    expect(Tombstone.parse(JSON.parse(readFileSync(join(out(), 'zrh-1', 'listings.json'), 'utf8')))).toMatchObject({
      facility: 'zrh-1',
      state: 'withdrawn',
      version: 3,
    });
    const index = JSON.parse(readFileSync(join(out(), 'index.json'), 'utf8')) as { facilities: { id: string }[] };
    expect(index.facilities.map((f) => f.id)).toEqual(['ber-1', 'krk-1', 'wro-1']);
    for (const id of ['ber-1', 'krk-1', 'wro-1']) expect(pointer(id).facility.id).toBe(id);
    const again = await withdrawFacility(db, {
      target: folderTarget(out()),
      key: keyA,
      facilityId: 'zrh-1',
      ttlSeconds: 7200,
    });
    expect(again).toMatchObject({ first: false });
  });

  it('--watch wakes when a tombstone is due to be signed again', { timeout: 30_000 }, async () => {
    await publishSnapshots(db, {
      target: folderTarget(out()),
      key: keyA,
      publicUrl: 'https://l.example',
      ttlSeconds: 3600,
    });
    await withdrawFacility(db, { target: folderTarget(out()), key: keyA, facilityId: 'zrh-1', ttlSeconds: 4 });
    const version = () =>
      (JSON.parse(readFileSync(join(out(), 'zrh-1', 'listings.json'), 'utf8')) as { version: number }).version;
    const withdrawnAt = version();
    const controller = new AbortController();
    const watching = watchAndPublish(db, {
      target: folderTarget(out()),
      key: keyA,
      publicUrl: 'https://l.example',
      ttlSeconds: 3600,
      signal: controller.signal,
      pollMs: 20,
      onPublish: () => {},
      onRetry: () => {},
      onWaiting: () => {},
    });
    try {
      await until('the tombstone signed again', () => version() > withdrawnAt, { timeoutMs: 10_000 });
      expect(JSON.parse(readFileSync(join(out(), 'zrh-1', 'listings.json'), 'utf8'))).toMatchObject({
        state: 'withdrawn',
      });
    } finally {
      controller.abort();
      await watching;
    }
  });
});
