// An export killed mid-way (SIGKILL) never leaves a partial listings.json, nor a pointer naming a version that is not
// all there; readers during an export never see either.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseImport } from '../server/domain/import.ts';
import { Snapshot } from '../shared/listing.ts';
import { generateSigningKey } from '../server/snapshots/format/keygen.ts';
import { verifySnapshot } from '../server/snapshots/format/verify.ts';
import { openDb } from '../server/store/db.ts';
import { applyImport } from '../server/store/facilities.ts';
import { BIN, REPO, tempDir } from './helpers/fixture.ts';

const FACILITIES = 300;
const LISTINGS = 50;

/** An import file of many facilities with many listings, each with photos. */
function bigImport(facilities: number, listings: number, priceShift = 0) {
  return {
    facilities: Array.from({ length: facilities }, (_, f) => ({
      id: `fac-${String(f).padStart(4, '0')}`,
      name: `Facility ${f}`,
      currency: 'EUR',
      pricing_rules: [{ min_occupancy: 0.8, adjust_pct: 10 }],
      listings: Array.from({ length: listings }, (_, i) => ({
        code: `U-${i}`,
        title: `Unit ${i}`,
        active: i % 10 !== 9,
        area_m2: 1 + (i % 20) / 2,
        dimensions: { width_m: 1, depth_m: 2, height_m: 2.4 },
        description: 'Drive-up access. '.repeat(4),
        price_gross: 5000 + i * 10 + priceShift,
        vat_rate: 21,
        dynamic_pricing: i % 2 === 0,
        total_units: 20,
        free_units: (f + i) % 21,
        min_rental_period: 'P1M',
        notice_period: 'P14D',
        deposit: 10000,
        photos: [0, 1, 2].map((p) => ({
          url: `https://img.example.com/${f}/${i}/${p}.jpg`,
          caption: `Photo ${p}`,
          width: 1200,
          height: 800,
        })),
      })),
    })),
  };
}

let dir: string;
let cleanup: () => void;
let dbFile: string;
let keyFile: string;
const out = () => join(dir, 'out');
const facilityDirs = () => readdirSync(out()).filter((name) => name.startsWith('fac-'));

function importData(priceShift: number) {
  const db = openDb(dbFile);
  applyImport(db, parseImport(JSON.stringify(bigImport(FACILITIES, LISTINGS, priceShift)), 'generated'));
  db.close();
}

/** Runs the real export; with `killAfterLines`, SIGKILLs it once that many progress lines have appeared. */
function exportRun(
  killAfterLines?: number,
): Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }> {
  const child = spawn(
    process.execPath,
    [BIN, 'snapshot', 'export', '--db', dbFile, '--out', out(), '--signing-key', keyFile],
    { cwd: REPO, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => {
    stderr += d.toString();
    if (killAfterLines !== undefined && (stderr.match(/^exported \d+\//gm) ?? []).length >= killAfterLines)
      child.kill('SIGKILL');
  });
  return new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal, stderr })));
}

/**
 * Every pointer listings.json in place, parsed and checked as the contract says a reader checks it: against the
 * signature of the version it names (v<N>/listings.json.sig), whose own listings.json must hold the same bytes.
 */
function inspect() {
  const keys = readFileSync(join(out(), 'keys.json'), 'utf8');
  return facilityDirs()
    .filter((id) => existsSync(join(out(), id, 'listings.json')))
    .map((id) => {
      const bytes = readFileSync(join(out(), id, 'listings.json'));
      const snapshot = Snapshot.parse(JSON.parse(bytes.toString())); // throws on a partial or unparseable file
      const versionDir = join(out(), id, `v${snapshot.version}`);
      const result = verifySnapshot(bytes, readFileSync(join(versionDir, 'listings.json.sig'), 'utf8'), keys, {
        now: new Date(),
      });
      const sameAsVersion = readFileSync(join(versionDir, 'listings.json')).equals(bytes);
      return { id, version: snapshot.version, listings: snapshot.listings.length, result, sameAsVersion };
    });
}

/** What a facility folder may hold, even after a kill: the pointer pair and version folders (temp files are in OUT/.tmp/). */
const ALLOWED = /^(listings\.json(\.sig)?|v\d+)$/;

/**
 * Anything in the output folder that is not the published layout: a hidden file or folder (a temp file, the lock), or
 * a version folder that holds neither of its files. One of its two files alone is a version cut short; it stays.
 */
function leftovers(): string[] {
  const found: string[] = [];
  const walk = (rel: string) => {
    for (const entry of readdirSync(join(out(), rel), { withFileTypes: true })) {
      const path = rel ? `${rel}/${entry.name}` : entry.name;
      if (entry.name.startsWith('.')) found.push(path);
      else if (entry.isDirectory()) {
        if (/^v\d+$/.test(entry.name) && readdirSync(join(out(), path)).length === 0) found.push(`${path}/ (empty)`);
        walk(path);
      }
    }
  };
  walk('');
  return found;
}

beforeAll(async () => {
  ({ dir, cleanup } = tempDir());
  dbFile = join(dir, 'listings.db');
  importData(0);
  keyFile = (await generateSigningKey(join(dir, 'secrets'))).private_key;
});
afterAll(() => cleanup());

describe(`an export of ${FACILITIES} facilities x ${LISTINGS} listings killed mid-way`, { timeout: 120_000 }, () => {
  it('into an empty folder: every listings.json present is complete and verifies (its .sig was in place first)', async () => {
    const run = await exportRun(1);
    expect(run.signal).toBe('SIGKILL');
    const present = inspect();
    expect(present.length).toBeGreaterThan(0);
    expect(present.length).toBeLessThan(FACILITIES);
    for (const p of present) {
      expect(p.result.ok, p.id).toBe(true);
      expect(p.sameAsVersion, p.id).toBe(true);
      expect(p.listings).toBe(45);
    }
    for (const id of facilityDirs()) {
      for (const name of readdirSync(join(out(), id))) expect(name).toMatch(ALLOWED);
    }
  });

  it('over a previous export: readers never see a partial file, and every pointer verifies against its version', async () => {
    const full = await exportRun(); // takes over the killed run's stale lock
    expect(full.code).toBe(0);
    const before = new Map(inspect().map((p) => [p.id, p.version]));
    expect(before.size).toBe(FACILITIES);
    importData(100);

    // A reader polls the files while the export runs, as a static server would.
    let reads = 0;
    let stop = false;
    const reader = (async () => {
      while (!stop) {
        const id = `fac-${String(reads % FACILITIES).padStart(4, '0')}`;
        Snapshot.parse(JSON.parse(readFileSync(join(out(), id, 'listings.json'), 'utf8')));
        reads++;
        await new Promise((r) => setTimeout(r, 2));
      }
    })();
    const run = await exportRun(3);
    stop = true;
    await reader;
    expect(run.signal).toBe('SIGKILL');
    expect(reads).toBeGreaterThan(0);

    const after = inspect();
    expect(after.length).toBe(FACILITIES);
    // The pointer's own .sig may lag its listings.json after the kill; the version's signature never does.
    for (const p of after) {
      expect(p.result.ok, p.id).toBe(true);
      expect(p.sameAsVersion, p.id).toBe(true);
    }
    const renewed = after.filter((p) => p.version > before.get(p.id)!);
    expect(renewed.length).toBeGreaterThan(0);
    expect(renewed.length).toBeLessThan(FACILITIES);

    // The next export repairs everything, and clears what the killed runs left half-written.
    expect((await exportRun()).code).toBe(0);
    expect(leftovers()).toEqual([]);
    const repaired = inspect();
    expect(repaired.every((p) => p.result.ok && p.sameAsVersion)).toBe(true);
    const keys = readFileSync(join(out(), 'keys.json'), 'utf8');
    for (const id of facilityDirs()) {
      for (const name of readdirSync(join(out(), id))) expect(name).toMatch(/^(listings\.json(\.sig)?|v\d+)$/);
      // After a complete export the pointer's own pair matches too (for readers that predate versioned signatures).
      const pointer = readFileSync(join(out(), id, 'listings.json'));
      expect(
        verifySnapshot(pointer, readFileSync(join(out(), id, 'listings.json.sig'), 'utf8'), keys, { now: new Date() })
          .ok,
      ).toBe(true);
    }
  });
});
