// A folder target's temp files, all in one hidden folder: what a killed writer left is found with one read, not a walk.
import type { Dirent } from 'node:fs';
import { readdir, readFile, rm, rmdir } from 'node:fs/promises';
import { eachConcurrently } from '../concurrently.ts';
import { join } from 'node:path';
import { INDEX_KEY, pointerKey } from './layout.ts';

export const TEMP_DIR = '.tmp';

/** The temp file of an object: its key in one name (the lock admits one writer, so one name per object will do). */
export const tempPathFor = (root: string, key: string) => join(root, TEMP_DIR, encodeURIComponent(key));

const VERSION_FILE = /^([a-z0-9-]+)\/v(\d+)\/[^/]+$/;

/**
 * Run by the lock's holder before it writes: removes the temp files of an interrupted run, then each version folder
 * they were for if it is empty and no pointer or index names it. An empty folder holds no version, so no reader's.
 */
export async function sweepInterrupted(root: string): Promise<void> {
  const dir = join(root, TEMP_DIR);
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw err;
  }
  const versions = new Map<string, { facility: string; version: number }>();
  for (const name of names) {
    await rm(join(dir, name), { recursive: true, force: true });
    const m = VERSION_FILE.exec(keyOf(name) ?? '');
    if (m) versions.set(`${m[1]}/v${m[2]}`, { facility: m[1]!, version: Number(m[2]) });
  }
  await removeUnnamedEmpty(root, versions);
}

/** The temp name an older release gave each object, beside it: `v5/.listings.json.tmp` for `v5/listings.json`. */
const BESIDE = {
  root: /^\.(keys\.json|index\.json(\.sig)?)\.tmp$/,
  keys: /^\.[A-Za-z0-9_-]+\.pem\.tmp$/,
  changes: /^\.(latest|\d+)\.json(\.sig)?\.tmp$/,
  facility: /^\.listings\.json(\.sig)?\.tmp$/,
};
const FACILITY_DIR = /^[a-z0-9-]+$/;
const VERSION_DIR = /^v(\d+)$/;

/**
 * Removes the temp files an export or publish of an older release left beside the objects when it was killed (it
 * wrote each one as `.NAME.tmp` in the object's folder): only files, and only by the names it gave the objects of the
 * layout in their folders. A version folder emptied so, which no pointer or index names, goes too. Each version folder
 * is read, so a folder target does this once, at its first lock.
 */
export async function sweepBesideTemps(root: string): Promise<void> {
  await removeTemps(root, BESIDE.root);
  await removeTemps(join(root, 'keys'), BESIDE.keys);
  await removeTemps(join(root, 'changes'), BESIDE.changes);
  const facilities = (await entriesOf(root)).filter((e) => e.isDirectory() && FACILITY_DIR.test(e.name));
  const emptied = new Map<string, { facility: string; version: number }>();
  await eachConcurrently(facilities, 16, async ({ name: facility }) => {
    const dir = join(root, facility);
    const entries = await entriesOf(dir);
    await removeTemps(dir, BESIDE.facility, entries);
    for (const e of entries) {
      const version = VERSION_DIR.exec(e.name)?.[1];
      if (!e.isDirectory() || version === undefined) continue;
      if ((await removeTemps(join(dir, e.name), BESIDE.facility)) > 0)
        emptied.set(`${facility}/${e.name}`, { facility, version: Number(version) });
    }
  });
  await removeUnnamedEmpty(root, emptied);
}

/** A folder's entries; none when it is not there. */
async function entriesOf(dir: string): Promise<Dirent[]> {
  try {
    return await readdir(dir, { withFileTypes: true });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return [];
    throw err;
  }
}

/** Removes the files in `dir` whose names match; resolves to how many. */
async function removeTemps(dir: string, names: RegExp, entries?: Dirent[]): Promise<number> {
  const temps = (entries ?? (await entriesOf(dir))).filter((e) => e.isFile() && names.test(e.name));
  for (const e of temps) await rm(join(dir, e.name), { force: true });
  return temps.length;
}

/** Removes each version folder that is empty and that neither its pointer nor the index names. */
async function removeUnnamedEmpty(root: string, versions: Map<string, { facility: string; version: number }>) {
  if (versions.size === 0) return;
  const indexed = await indexedVersions(root);
  for (const [folder, { facility, version }] of versions) {
    if (indexed.get(facility) === version || (await versionOf(join(root, pointerKey(facility)))) === version) continue;
    await rmdir(join(root, folder)).catch(() => undefined); // not empty (one of its files made it), or gone
  }
}

function keyOf(name: string): string | undefined {
  try {
    return decodeURIComponent(name);
  } catch {
    return undefined;
  }
}

async function readJson(path: string): Promise<unknown> {
  try {
    return JSON.parse(await readFile(path, 'utf8'));
  } catch {
    return undefined; // absent or unreadable: it names nothing
  }
}

async function versionOf(pointer: string): Promise<number | undefined> {
  const version = ((await readJson(pointer)) as { version?: unknown } | undefined)?.version;
  return typeof version === 'number' ? version : undefined;
}

async function indexedVersions(root: string): Promise<Map<string, number>> {
  const index = (await readJson(join(root, INDEX_KEY))) as { facilities?: { id?: unknown; version?: unknown }[] };
  const entries = Array.isArray(index?.facilities) ? index.facilities : [];
  return new Map(
    entries.flatMap((e) => (typeof e.id === 'string' && typeof e.version === 'number' ? [[e.id, e.version]] : [])),
  );
}
