// A folder target's temp files, all in one hidden folder: what a killed writer left is found with one read, not a walk.
import { readdir, readFile, rm, rmdir } from 'node:fs/promises';
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
