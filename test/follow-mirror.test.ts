// A follower's mirror of a published folder: from the index once, then by the feed; every file byte-identical to the target's.
import { generateKeyPairSync } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseImport } from '../server/domain/import.ts';
import type { Db } from '../server/store/db.ts';
import { applyImport } from '../server/store/facilities.ts';
import { followOnce } from '../server/snapshots/follow/follow.ts';
import { signingKeyOf } from '../server/snapshots/format/keygen.ts';
import { publishSnapshots } from '../server/snapshots/publish/publish.ts';
import { folderTarget } from '../server/snapshots/targets/folder.ts';
import { withdrawFacility } from '../server/snapshots/publish/withdraw.ts';
import { demoDbEachTest, demoJson } from './helpers/fixture.ts';

const key = signingKeyOf(generateKeyPairSync('ed25519').privateKey);
let dir: string;
let db: Db;
demoDbEachTest((t) => ({ dir, db } = t));

const out = () => join(dir, 'out');
const mirror = () => join(dir, 'mirror');
const target = () => folderTarget(out());
const publish = () =>
  publishSnapshots(db, { target: target(), key, publicUrl: 'https://l.example', ttlSeconds: 86_400 });
const follow = () => followOnce({ base: out(), keys: join(out(), 'keys.json'), dir: mirror() });

function changePrice(facility: string, gross: number) {
  const f = demoJson().facilities.find((x) => x.id === facility);
  f.listings[0].price_gross = gross;
  applyImport(db, parseImport(JSON.stringify({ facilities: [f] }), 'test'));
}

/** Every file under a folder, relative, without the follower's own .follow/. */
function filesOf(root: string): string[] {
  const walk = (d: string): string[] =>
    readdirSync(d).flatMap((n) => {
      const p = join(d, n);
      return statSync(p).isDirectory() ? walk(p) : [relative(root, p)];
    });
  return walk(root)
    .filter((f) => !f.startsWith('.follow'))
    .sort();
}

describe('snapshot follow', () => {
  it('mirrors a target byte for byte after a publish, two changes and a withdrawal', async () => {
    await publish();
    const first = await follow();
    expect(first).toMatchObject({ mode: 'index', fetched: 4, listed: 4, seq: 4 });

    changePrice('wro-1', 11111);
    changePrice('ber-1', 22222);
    expect(await publish()).toMatchObject({ published: 2, feed_items: 2 });
    expect(
      await withdrawFacility(db, { target: target(), key, facilityId: 'zrh-1', ttlSeconds: 86_400 }),
    ).toMatchObject({ facility: 'zrh-1', first: true, feed_items: 1 });

    const second = await follow();
    expect(second).toMatchObject({ mode: 'feed', fetched: 2, withdrawn: 1, listed: 3, seq: 7 });
    // Only the head, the index, keys.json and what changed: never a pointer, never an unchanged facility.
    expect(second.reads.filter((r) => r.endsWith('.json'))).toEqual(
      expect.arrayContaining(['changes/latest.json', 'index.json', 'wro-1/v2/listings.json', 'zrh-1/v2/listings.json']),
    );
    expect(second.reads.some((r) => r.startsWith('krk-1/'))).toBe(false);

    const files = filesOf(mirror());
    expect(files).toEqual([
      'ber-1/listings.json',
      'ber-1/listings.json.sig',
      'index.json',
      'index.json.sig',
      'keys.json',
      'krk-1/listings.json',
      'krk-1/listings.json.sig',
      'wro-1/listings.json',
      'wro-1/listings.json.sig',
      'zrh-1/listings.json',
      'zrh-1/listings.json.sig',
    ]);
    for (const f of files) expect(readFileSync(join(mirror(), f)).equals(readFileSync(join(out(), f))), f).toBe(true);
    expect(JSON.parse(readFileSync(join(mirror(), 'zrh-1', 'listings.json'), 'utf8'))).toMatchObject({
      facility: 'zrh-1',
      state: 'withdrawn',
    });

    // Nothing new: one read, nothing written.
    const third = await follow();
    expect(third).toMatchObject({ mode: 'unchanged', reads: ['changes/latest.json'] });
  });

  it('lists what the contract says in index.json, and items only for changed content', async () => {
    await publish();
    const index = JSON.parse(readFileSync(join(out(), 'index.json'), 'utf8'));
    expect(Object.keys(index)).toEqual(['version', 'generated_at', 'expires_at', 'kid', 'facilities']);
    const wro = index.facilities.find((f: { id: string }) => f.id === 'wro-1');
    expect(Object.keys(wro)).toEqual([
      'id',
      'name',
      'address',
      'geo',
      'currency',
      'listings',
      'from_price',
      'version',
      'digest',
      'updated_at',
      'url',
    ]);
    const snapshot = JSON.parse(readFileSync(join(out(), 'wro-1', 'listings.json'), 'utf8'));
    const monthlyFree = snapshot.listings.filter(
      (l: { free_units: number; price: { period: string } }) => l.free_units > 0 && l.price.period === 'P1M',
    );
    const lowest = Math.min(...monthlyFree.map((l: { price: { gross: number } }) => l.price.gross));
    expect(wro).toMatchObject({
      address: snapshot.facility.address,
      geo: snapshot.facility.geo,
      listings: snapshot.listings.length,
      url: 'wro-1/listings.json',
    });
    expect(wro.from_price.gross).toBe(lowest);

    // An export re-signs every facility (new versions) but, the content being the same, adds no item.
    const head = () => JSON.parse(readFileSync(join(out(), 'changes', 'latest.json'), 'utf8'));
    expect(head().items.map((i: { seq: number }) => i.seq)).toEqual([1, 2, 3, 4]);
    const again = await publishSnapshots(db, {
      target: target(),
      key,
      publicUrl: 'https://l.example',
      ttlSeconds: 86_400,
      force: true,
    });
    expect(again).toMatchObject({ published: 4, feed_items: 0 });
    expect(head().items).toHaveLength(4);
    const reIndexed = JSON.parse(readFileSync(join(out(), 'index.json'), 'utf8'));
    expect(reIndexed.version).toBeGreaterThan(index.version);
    expect(reIndexed.facilities.find((f: { id: string }) => f.id === 'wro-1')).toMatchObject({
      version: wro.version + 1,
      digest: wro.digest,
      updated_at: wro.updated_at,
    });
  });

  it('keeps a withdrawn facility out of later publishes until it is published again by name', async () => {
    await publish();
    await follow();
    await withdrawFacility(db, { target: target(), key, facilityId: 'krk-1', ttlSeconds: 86_400 });
    changePrice('krk-1', 33333);
    expect(await publish()).toMatchObject({ published: 0, feed_items: 0 });
    const pointer = () => JSON.parse(readFileSync(join(out(), 'krk-1', 'listings.json'), 'utf8'));
    expect(pointer()).toMatchObject({ state: 'withdrawn', version: 2 });

    const again = await publishSnapshots(db, {
      target: target(),
      key,
      publicUrl: 'https://l.example',
      ttlSeconds: 86_400,
      facilityIds: ['krk-1'],
    });
    expect(again).toMatchObject({ published: 1, feed_items: 1 });
    expect(pointer()).toMatchObject({ facility: { id: 'krk-1' }, version: 3 });
    // The follower saw the withdrawal and the return in one walk: it holds the listed facility.
    expect(await follow()).toMatchObject({ mode: 'feed', fetched: 1, withdrawn: 0, listed: 4, seq: 6 });
    expect(
      readFileSync(join(mirror(), 'krk-1', 'listings.json')).equals(
        readFileSync(join(out(), 'krk-1', 'listings.json')),
      ),
    ).toBe(true);
  });
  it('takes a tombstone the publisher signs again, at half its TTL and after a key rotation drops its kid', async () => {
    const t0 = Date.now();
    const at = (hours: number) => new Date(t0 + hours * 3_600_000);
    const publishAt = (k: typeof key, hours: number) =>
      publishSnapshots(db, {
        target: target(),
        key: k,
        publicUrl: 'https://l.example',
        ttlSeconds: 86_400,
        now: at(hours),
      });
    const followAt = (hours: number) =>
      followOnce({ base: out(), keys: join(out(), 'keys.json'), dir: mirror(), now: at(hours) });
    const same = (f: string) => readFileSync(join(mirror(), f)).equals(readFileSync(join(out(), f)));
    const tombstone = () => JSON.parse(readFileSync(join(mirror(), 'zrh-1', 'listings.json'), 'utf8'));

    await publishAt(key, 0);
    await followAt(0);
    await withdrawFacility(db, { target: target(), key, facilityId: 'zrh-1', ttlSeconds: 86_400, now: at(0) });
    expect(await followAt(0)).toMatchObject({ withdrawn: 1, renewed: 0 });

    // Half the TTL on: the publisher signs the tombstone again (no feed item); the mirror takes the new version.
    expect(await publishAt(key, 13)).toMatchObject({ tombstones: 1, feed_items: 0 });
    expect(await followAt(13)).toMatchObject({ mode: 'feed', withdrawn: 0, renewed: 1 });
    expect(tombstone()).toMatchObject({ state: 'withdrawn', version: 3 });
    expect(same('zrh-1/listings.json') && same('zrh-1/listings.json.sig')).toBe(true);

    // A new key signs everything again at once; once the old key's files expire, keys.json drops its kid.
    const next = signingKeyOf(generateKeyPairSync('ed25519').privateKey);
    expect(await publishAt(next, 14)).toMatchObject({ tombstones: 1 });
    expect(await followAt(14)).toMatchObject({ renewed: 1 });
    expect(tombstone()).toMatchObject({ version: 4, kid: next.kid });
    await publishAt(next, 38);
    expect(readFileSync(join(out(), 'keys.json'), 'utf8')).not.toContain(key.kid);
    expect(await followAt(38)).toMatchObject({ renewed: 1 });
    for (const f of ['keys.json', 'zrh-1/listings.json', 'zrh-1/listings.json.sig']) expect(same(f), f).toBe(true);
  });

  it('takes a withdrawal whose first tombstone expired while it was away, in the version the target signs now', async () => {
    const t0 = Date.now();
    const at = (hours: number) => new Date(t0 + hours * 3_600_000);
    const publishAt = (hours: number) =>
      publishSnapshots(db, {
        target: target(),
        key,
        publicUrl: 'https://l.example',
        ttlSeconds: 86_400,
        now: at(hours),
      });
    const followAt = (hours: number) =>
      followOnce({ base: out(), keys: join(out(), 'keys.json'), dir: mirror(), now: at(hours) });

    await publishAt(0);
    await followAt(0);
    await withdrawFacility(db, { target: target(), key, facilityId: 'krk-1', ttlSeconds: 86_400, now: at(0) });
    // The feed names v2; the publisher signs the tombstone again as v3 and v4, with no item, and v2 expires at 24 h.
    expect(await publishAt(13)).toMatchObject({ tombstones: 1, feed_items: 0 });
    expect(await publishAt(26)).toMatchObject({ tombstones: 1, feed_items: 0 });

    expect(await followAt(27)).toMatchObject({ mode: 'feed', withdrawn: 1, listed: 3, seq: 5 });
    for (const f of ['krk-1/listings.json', 'krk-1/listings.json.sig'])
      expect(readFileSync(join(mirror(), f)).equals(readFileSync(join(out(), f))), f).toBe(true);
    expect(JSON.parse(readFileSync(join(mirror(), 'krk-1', 'listings.json'), 'utf8'))).toMatchObject({ version: 4 });
    expect(await followAt(28)).toMatchObject({ mode: 'unchanged' });
  });
});
