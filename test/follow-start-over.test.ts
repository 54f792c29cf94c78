// A follower whose cursor lies in a page it cannot read (withheld, or signed by a retired key) starts over from the
// index: it says so, keeps the tombstones the target still serves, and removes only what is neither listed nor withdrawn.
import { generateKeyPairSync } from 'node:crypto';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseImport } from '../server/domain/import.ts';
import type { Db } from '../server/store/db.ts';
import { applyImport } from '../server/store/facilities.ts';
import { followOnce } from '../server/snapshots/follow/follow.ts';
import { signingKeyOf, type SigningKey } from '../server/snapshots/format/keygen.ts';
import { publishSnapshots } from '../server/snapshots/publish/publish.ts';
import { withdrawFacility } from '../server/snapshots/publish/withdraw.ts';
import { folderTarget } from '../server/snapshots/targets/folder.ts';
import { bigImport } from './helpers/data.ts';
import { cliInProcess, demoDbEachTest } from './helpers/fixture.ts';

const key = signingKeyOf(generateKeyPairSync('ed25519').privateKey);
const t0 = Date.now();
const at = (hours: number) => new Date(t0 + hours * 3_600_000);
let dir: string;
let db: Db;
let dbFile: string;
demoDbEachTest((t) => ({ dir, db, file: dbFile } = t));

const out = () => join(dir, 'out');
const mirror = () => join(dir, 'mirror');
const target = () => folderTarget(out());
const publishAt = (hours: number, k: SigningKey = key) =>
  publishSnapshots(db, {
    target: target(),
    key: k,
    publicUrl: 'https://l.example',
    ttlSeconds: 86_400,
    now: at(hours),
  });
const withdrawAt = (facilityId: string, hours: number) =>
  withdrawFacility(db, { target: target(), key, facilityId, ttlSeconds: 86_400, now: at(hours) });
const followAt = (hours: number) =>
  followOnce({ base: out(), keys: join(out(), 'keys.json'), dir: mirror(), now: at(hours) });
const same = (f: string) => readFileSync(join(mirror(), f)).equals(readFileSync(join(out(), f)));
const versionOf = (f: string) => (JSON.parse(readFileSync(join(mirror(), f), 'utf8')) as { version: number }).version;

/**
 * The demo published and followed, zrh-1 and krk-1 withdrawn and followed (seq 6), then 996 facilities more: page 1
 * (seq 1-1000) is full and the head is page 2 (seq 1001-1002), past the mirror's cursor.
 */
async function mirrorBehindAFullPage() {
  await publishAt(0);
  await followAt(0);
  await withdrawAt('zrh-1', 0);
  await withdrawAt('krk-1', 0);
  expect(await followAt(0)).toMatchObject({ mode: 'feed', withdrawn: 2, seq: 6 });
  applyImport(db, parseImport(JSON.stringify(bigImport('many', 996, 1)), 'test'));
  expect(await publishAt(1)).toMatchObject({ feed_items: 996 });
}

describe('snapshot follow, starting over from the index', () => {
  it('keeps the tombstones the target serves when the page holding its cursor is withheld', async () => {
    await mirrorBehindAFullPage();
    rmSync(join(out(), 'changes', '1.json'));
    rmSync(join(out(), 'krk-1'), { recursive: true }); // neither listed nor withdrawn on the target any more

    // As an aggregator runs it: a line says why it started over, the summary that it removed only krk-1.
    const r = await cliInProcess(dbFile, [
      'snapshot',
      'follow',
      out(),
      '--keys',
      join(out(), 'keys.json'),
      '--state',
      mirror(),
    ]);
    expect(r.code).toBe(0);
    const [why, summary] = r.stdout.trim().split('\n');
    expect(why).toMatch(/^started over from the index: changes\/1\.json is not served/);
    expect(summary).toMatch(
      /^mirrored from the index: 998 facilities listed, 996 fetched, 0 withdrawn, 1 removed; cursor seq 1002;/,
    );
    expect(same('zrh-1/listings.json') && same('zrh-1/listings.json.sig')).toBe(true);
    expect(() => readFileSync(join(mirror(), 'krk-1', 'listings.json'))).toThrow();
  });

  it('takes the tombstone signed again under a new key when the old key, and so its pages, retired', async () => {
    await mirrorBehindAFullPage();
    const next = signingKeyOf(generateKeyPairSync('ed25519').privateKey);
    await publishAt(14, next); // signs everything again with the new key, the tombstones too
    // The aggregator trusts the new key alone, as keys.json will once the old key's files expire: page 1 is the old's.
    const pinned = join(dir, 'pinned-keys.json');
    const { keys } = JSON.parse(readFileSync(join(out(), 'keys.json'), 'utf8')) as { keys: { kid: string }[] };
    writeFileSync(pinned, JSON.stringify({ keys: keys.filter((k) => k.kid === next.kid) }));

    const r = await followOnce({ base: out(), keys: pinned, dir: mirror(), now: at(14) });
    expect(r).toMatchObject({ mode: 'index', removed: 0, renewed: 2 });
    expect(r.start_over).toMatch(/^changes\/1\.json /);
    for (const id of ['zrh-1', 'krk-1']) {
      expect(same(`${id}/listings.json`) && same(`${id}/listings.json.sig`), id).toBe(true);
      expect(versionOf(`${id}/listings.json`), id).toBeGreaterThan(2);
    }
  });
});
