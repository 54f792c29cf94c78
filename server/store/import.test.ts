// Import: the demo file applied, idempotent re-imports, stable ids, deactivation, file order, and all-or-nothing failures.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cli, cliAsync, dbBytes, DEMO_DATA, demoJson, tempDir, writeJson } from '../../test/helpers/fixture.ts';
import { parseImport } from '../domain/import.ts';
import { openDb, type Db } from './db.ts';
import { listingIdOf } from '../domain/facility.ts';
import { applyImport, facilityData, listFacilities } from './facilities.ts';

let dir: string;
let cleanup: () => void;
/** A fresh folder per test, for the tests that run one at a time (the concurrent ones make their own). */
function withTempDir() {
  beforeEach(() => ({ dir, cleanup } = tempDir()));
  afterEach(() => cleanup());
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
function importJson(db: Db, data: any) {
  return applyImport(db, parseImport(JSON.stringify(data), 'test.json'));
}

/** Every stored row except import times, in a stable order: what "nothing changed" compares. */
function contentOf(db: Db) {
  return {
    facilities: db.prepare('SELECT id, name, currency, rental_page_url FROM facilities ORDER BY id').all(),
    rules: db.prepare('SELECT * FROM pricing_rules ORDER BY facility_id, min_occupancy').all(),
    listings: db.prepare('SELECT * FROM listings ORDER BY id').all(),
    photos: db.prepare('SELECT * FROM photos ORDER BY listing_id, position').all(),
  };
}

function activeCodes(db: Db, facilityId: string): string[] {
  return facilityData(db, facilityId)!.listings.map((l) => l.code);
}

describe('applyImport', () => {
  withTempDir();

  it('applies the demo file: every facility, active listings in file order, inactive ones stored', () => {
    const db = openDb(join(dir, 'a.db'));
    const demo = demoJson();
    const summary = importJson(db, demo);
    const activeInFile = demo.facilities.flatMap((f) => f.listings.filter((l: { active: boolean }) => l.active));
    expect(summary).toEqual({ facilities: demo.facilities.length, listings: activeInFile.length, deactivated: 0 });
    expect(listFacilities(db).map((f) => f.id)).toEqual(demo.facilities.map((f) => f.id).sort());
    for (const f of demo.facilities) {
      expect(activeCodes(db, f.id)).toEqual(
        f.listings.filter((l: { active: boolean }) => l.active).map((l: { code: string }) => l.code),
      );
      const stored = db.prepare('SELECT count(*) FROM listings WHERE facility_id = ?').pluck().get(f.id);
      expect(stored).toBe(f.listings.length);
    }
    const m07 = facilityData(db, 'wro-1')!.listings.find((l) => l.code === 'M-07')!;
    const fileM07 = demo.facilities[0].listings.find((l: { code: string }) => l.code === 'M-07');
    expect(m07.price_gross).toBe(fileM07.price_gross);
    expect(m07.photos.map((p) => p.caption)).toEqual(fileM07.photos.map((p: { caption: string }) => p.caption));
    db.close();
  });

  it('is idempotent: importing the same file again changes no row and no id', () => {
    const db = openDb(join(dir, 'a.db'));
    importJson(db, demoJson());
    const before = contentOf(db);
    expect(importJson(db, demoJson()).deactivated).toBe(0);
    expect(contentOf(db)).toEqual(before);
    db.close();
  });

  it('gives stable ids: same facility and code, same id, in any database', () => {
    const a = openDb(join(dir, 'a.db'));
    const b = openDb(join(dir, 'b.db'));
    importJson(a, demoJson());
    const reversed = demoJson();
    reversed.facilities.reverse();
    for (const f of reversed.facilities) f.listings.reverse();
    importJson(b, reversed);
    const ids = (db: Db) =>
      db.prepare('SELECT facility_id, code, id FROM listings ORDER BY id').all() as {
        facility_id: string;
        code: string;
        id: string;
      }[];
    expect(ids(b)).toEqual(ids(a));
    for (const row of ids(a)) expect(row.id).toBe(listingIdOf(row.facility_id, row.code));
    expect(listingIdOf('wro-1', 'M-07')).toMatch(/^lst_[0-9a-f]{20}$/);
    expect(listingIdOf('wro-1', 'M-07')).not.toBe(listingIdOf('wro-2', 'M-07'));
    a.close();
    b.close();
  });

  it("deactivates listings missing from a facility's new file, keeps them, and brings them back when re-added", () => {
    const db = openDb(join(dir, 'a.db'));
    importJson(db, demoJson());
    const id = listingIdOf('wro-1', 'M-07');
    const without = demoJson();
    without.facilities = [without.facilities[0]];
    without.facilities[0].listings = without.facilities[0].listings.filter((l: { code: string }) => l.code !== 'M-07');
    expect(importJson(db, without).deactivated).toBe(1);
    expect(activeCodes(db, 'wro-1')).not.toContain('M-07');
    expect(db.prepare('SELECT active, code FROM listings WHERE id = ?').get(id)).toEqual({ active: 0, code: 'M-07' });
    // Facilities absent from the file are left as they were.
    expect(activeCodes(db, 'ber-1')).toEqual(['S-1', 'M-4', 'L-9', 'B-1']);

    expect(importJson(db, demoJson()).deactivated).toBe(0);
    expect(activeCodes(db, 'wro-1')).toContain('M-07');
    expect(facilityData(db, 'wro-1')!.listings.find((l) => l.code === 'M-07')!.id).toBe(id);
    db.close();
  });

  it('lists in the order of the latest file', () => {
    const db = openDb(join(dir, 'a.db'));
    importJson(db, demoJson());
    const reordered = demoJson();
    reordered.facilities[0].listings.reverse();
    importJson(db, reordered);
    const expected = reordered.facilities[0].listings
      .filter((l: { active: boolean }) => l.active)
      .map((l: { code: string }) => l.code);
    expect(activeCodes(db, 'wro-1')).toEqual(expected);
    expect(expected[0]).not.toBe(demoJson().facilities[0].listings[0].code);
    db.close();
  });
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any
const INVALID: [string, string, (d: any) => void][] = [
  [
    'a value of the wrong type',
    'facilities[0].listings[1].price_gross',
    (d) => (d.facilities[0].listings[1].price_gross = '17900'),
  ],
  [
    'free_units above total_units',
    'facilities[0].listings[3].free_units',
    (d) => (d.facilities[0].listings[3].free_units = 7),
  ],
  ['an unknown currency', 'facilities[1].currency', (d) => (d.facilities[1].currency = 'XYZ')],
  [
    'a duplicate code',
    'facilities[0].listings[3].code',
    (d) => (d.facilities[0].listings[3].code = d.facilities[0].listings[1].code),
  ],
  [
    'a bad duration',
    'facilities[2].listings[0].notice_period',
    (d) => (d.facilities[2].listings[0].notice_period = '1 month'),
  ],
  ['an unknown field', 'facilities[0].listings[2].colour', (d) => (d.facilities[0].listings[2].colour = 'red')],
  ['a bad facility id', 'facilities[3].id', (d) => (d.facilities[3].id = 'Krakow 1')],
];

describe('listings import (the real binary)', () => {
  // Concurrent: each case is a child process; each builds its own folder.
  it.concurrent.each(INVALID)(
    'refuses %s: exit 1, one line naming %s, database bytes unchanged',
    async (_name, path, spoil) => {
      const own = tempDir();
      const file = join(own.dir, 'listings.db');
      // An open connection that has written keeps a -wal file beside the database, as a running server would.
      const db = openDb(file);
      try {
        importJson(db, demoJson());
        const before = dbBytes(file);
        expect(readFileSync(`${file}-wal`).length).toBeGreaterThan(0);

        const data = demoJson();
        data.facilities[0].listings[0].price_gross += 1000; // a valid change that must not land either
        spoil(data);
        const r = await cliAsync(['import', writeJson(own.dir, 'bad.json', data)], { env: { LISTINGS_DB: file } });

        expect(r.status).toBe(1);
        expect(r.stdout).toBe('');
        const lines = r.stderr.trimEnd().split('\n');
        // A count of the problems, then one line each: here exactly one, naming the path.
        expect(lines).toEqual([expect.stringMatching(/: 1 problem\b/), expect.stringContaining(`${path}:`)]);
        expect(dbBytes(file).equals(before)).toBe(true);
        expect(facilityData(db, 'wro-1')!.listings[0]!.price_gross).toBe(
          demoJson().facilities[0].listings[0].price_gross,
        );
      } finally {
        db.close();
        own.cleanup();
      }
    },
  );
});

describe('listings import -', () => {
  withTempDir();

  it('reads standard input', () => {
    const file = join(dir, 'stdin.db');
    const r = cli(['import', '-', '--json'], { env: { LISTINGS_DB: file }, input: readFileSync(DEMO_DATA, 'utf8') });
    expect(r.status).toBe(0);
    const demo = demoJson();
    expect(JSON.parse(r.stdout)).toMatchObject({ facilities: demo.facilities.length, deactivated: 0 });
    const db = openDb(file);
    expect(listFacilities(db).map((f) => f.id)).toEqual(demo.facilities.map((f) => f.id).sort());
    db.close();
  });
});
