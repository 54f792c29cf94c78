// exportSnapshots over a real SQLite file: the files, versions that only grow, stable bytes, key rotation, the lock.
import { spawnSync } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { demoDbEachTest, demoImport } from '../../../test/helpers/fixture.ts';
import { Jwks, Snapshot, SnapshotSignature } from '../../../shared/listing.ts';
import { openDb, type Db } from '../../store/db.ts';
import { applyImport } from '../../store/facilities.ts';
import { exportSnapshots, type ExportOptions, type ExportProgress } from './export.ts';
import { LOCK_FILE } from '../files.ts';
import { publicPemOf, signingKeyOf, type SigningKey } from '../format/keygen.ts';
import { verifySnapshot } from '../format/verify.ts';

const newKey = (): SigningKey => signingKeyOf(generateKeyPairSync('ed25519').privateKey);
const NOW = new Date('2030-03-01T12:00:00.250Z');

let dir: string;
let db: Db;
let dbFile: string;
const key = newKey();
demoDbEachTest((t) => ({ dir, db, file: dbFile } = t));

const out = () => join(dir, 'out');
const run = (extra: Partial<ExportOptions> = {}) =>
  exportSnapshots(db, {
    outDir: out(),
    key,
    publicUrl: 'https://listings.example',
    ttlSeconds: 7 * 86_400,
    now: NOW,
    ...extra,
  });
const read = (facility: string) => ({
  bytes: readFileSync(join(out(), facility, 'listings.json')),
  sig: readFileSync(join(out(), facility, 'listings.json.sig'), 'utf8'),
});
const keysJson = () => readFileSync(join(out(), 'keys.json'), 'utf8');
/** The bytes with the three fields that change on every export blanked out. */
const withoutVolatile = (bytes: Buffer) =>
  bytes
    .toString()
    .replace(/"version":\d+/, '"version":0')
    .replace(/"(generated_at|expires_at)":"[^"]+"/g, '"$1":""');

describe('exportSnapshots', () => {
  it('writes a signed, verifiable listings.json per facility, keys.json and the PEM key', async () => {
    const progress: ExportProgress[] = [];
    const summary = await run({ onProgress: (p) => progress.push(p) });
    const facilities = demoImport().facilities;
    expect(summary).toMatchObject({
      facilities: 4,
      changed: 4,
      unchanged: 0,
      kid: key.kid,
      generated_at: '2030-03-01T12:00:00Z',
      expires_at: '2030-03-08T12:00:00Z',
    });
    expect(progress.map((p) => p.done)).toEqual([1, 2, 3, 4]);
    expect(readdirSync(out()).sort()).toEqual([
      'ber-1',
      'changes',
      'index.json',
      'index.json.sig',
      'keys',
      'keys.json',
      'krk-1',
      'wro-1',
      'zrh-1',
    ]);
    expect(readFileSync(join(out(), 'keys', `${key.kid}.pem`), 'utf8')).toBe(publicPemOf(key.publicKey));
    expect(Jwks.parse(JSON.parse(keysJson())).keys.map((k) => k.kid)).toEqual([key.kid]);
    for (const f of facilities) {
      const { bytes, sig } = read(f.id);
      const snapshot = Snapshot.parse(JSON.parse(bytes.toString()));
      expect(snapshot).toMatchObject({ facility: { id: f.id, name: f.name }, version: 1, kid: key.kid });
      expect(snapshot.listings.map((l) => l.code)).toEqual(f.listings.filter((l) => l.active).map((l) => l.code));
      expect(SnapshotSignature.parse(JSON.parse(sig)).kid).toBe(key.kid);
      const r = verifySnapshot(bytes, sig, keysJson(), { now: NOW, facility: f.id });
      expect(r.ok).toBe(true);
      // The consistent layout: the pointer pair, and the same bytes kept immutable under v1/; no temp files left.
      expect(readdirSync(join(out(), f.id)).sort()).toEqual(['listings.json', 'listings.json.sig', 'v1']);
      expect(readdirSync(join(out(), f.id, 'v1')).sort()).toEqual(['listings.json', 'listings.json.sig']);
      expect(readFileSync(join(out(), f.id, 'v1', 'listings.json')).equals(bytes)).toBe(true);
      expect(readFileSync(join(out(), f.id, 'v1', 'listings.json.sig'), 'utf8')).toBe(sig);
    }
    expect(summary.listings).toBe(facilities.reduce((n, f) => n + f.listings.filter((l) => l.active).length, 0));
    expect(existsSync(join(out(), LOCK_FILE))).toBe(false);
  });

  it('grows the version with every export, across database connections', async () => {
    await run();
    await run({ facilityIds: ['wro-1'] });
    db.close();
    db = openDb(dbFile);
    const third = await run();
    expect(third.results.map((r) => [r.id, r.version])).toEqual([
      ['ber-1', 2],
      ['krk-1', 2],
      ['wro-1', 3],
      ['zrh-1', 2],
    ]);
    expect(Snapshot.parse(JSON.parse(read('wro-1').bytes.toString())).version).toBe(3);
  });

  it('keeps the bytes of an unchanged facility apart from version and timestamps, and reports changes', async () => {
    await run();
    const before = read('wro-1').bytes;
    const krkBefore = read('krk-1').bytes;
    const data = demoImport();
    data.facilities.find((f) => f.id === 'krk-1')!.listings[0]!.price_gross += 100;
    applyImport(db, data);
    const summary = await run({ now: new Date(NOW.getTime() + 3_600_000) });
    expect(summary).toMatchObject({ changed: 1, unchanged: 3 });
    expect(summary.results.find((r) => r.id === 'krk-1')!.changed).toBe(true);
    const after = read('wro-1').bytes;
    expect(after.equals(before)).toBe(false);
    expect(withoutVolatile(after)).toBe(withoutVolatile(before));
    expect(withoutVolatile(read('krk-1').bytes)).not.toBe(withoutVolatile(krkBefore));
  });

  it('keeps the other kids in keys.json, so files signed before a key rotation still verify', async () => {
    await run();
    const old = read('wro-1');
    const next = newKey();
    await run({ key: next });
    const kids = Jwks.parse(JSON.parse(keysJson())).keys.map((k) => k.kid);
    expect(kids).toEqual([next.kid, key.kid]);
    expect(verifySnapshot(old.bytes, old.sig, keysJson(), { now: NOW }).ok).toBe(true);
    const current = read('wro-1');
    expect(verifySnapshot(current.bytes, current.sig, keysJson(), { now: NOW })).toMatchObject({
      ok: true,
      checked: { kid: next.kid },
    });
    await run({ key: next });
    expect(Jwks.parse(JSON.parse(keysJson())).keys.map((k) => k.kid)).toEqual([next.kid, key.kid]);
  });

  it('exports only the facilities asked for, and refuses unknown ones before writing anything', async () => {
    await expect(run({ facilityIds: ['wro-1', 'nope-9'] })).rejects.toMatchObject({ code: 'unknown_facility' });
    expect(existsSync(out())).toBe(false);
    const summary = await run({ facilityIds: ['wro-1', 'wro-1'] });
    expect(summary.facilities).toBe(1);
    expect(readdirSync(out()).sort()).toEqual([
      'changes',
      'index.json',
      'index.json.sig',
      'keys',
      'keys.json',
      'wro-1',
    ]);
  });

  it('refuses a keys.json that is not a JWKS rather than replacing it', async () => {
    await run();
    writeFileSync(join(out(), 'keys.json'), '{"keys":"oops"}');
    await expect(run()).rejects.toMatchObject({ code: 'invalid_keys_file' });
    expect(keysJson()).toBe('{"keys":"oops"}');
  });

  it('will not export into a folder another export holds, but takes over a lock whose process is gone', async () => {
    await run();
    writeFileSync(join(out(), LOCK_FILE), `${process.pid}\n`);
    await expect(run()).rejects.toMatchObject({ code: 'export_locked' });
    const gone = spawnSync(process.execPath, ['-e', '0']).pid!;
    writeFileSync(join(out(), LOCK_FILE), `${gone}\n`);
    await expect(run()).resolves.toMatchObject({ facilities: 4 });
    expect(existsSync(join(out(), LOCK_FILE))).toBe(false);
  });
});
