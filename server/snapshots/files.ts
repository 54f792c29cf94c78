// Durable, atomic file replacement for the output folder, and the lock that keeps two exports out of one folder.
import { mkdir, open, readFile, rename, rmdir, stat, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { ListingsError } from '../errors.ts';
import type { LockHolder } from './targets/target.ts';

/** A hidden temp name in the same folder (same file system, so rename is atomic); fixed, as one writer rewrites the file. */
function tempPathOf(path: string): string {
  return join(dirname(path), `.${basename(path)}.tmp`);
}

/** Writes the whole file and fsyncs it, so a later rename can never expose a short or empty file, even after a power cut. */
export async function writeDurable(path: string, bytes: Uint8Array | string): Promise<void> {
  const fh = await open(path, 'w', 0o644);
  try {
    await fh.writeFile(bytes);
    await fh.sync();
  } finally {
    await fh.close();
  }
}

/** Makes the renames in a folder durable. */
async function syncDir(dir: string): Promise<void> {
  const fh = await open(dir, 'r');
  try {
    await fh.sync();
  } finally {
    await fh.close();
  }
}

/** Replaces one file atomically: readers see the old bytes or the new bytes, never a mix. */
export async function replaceFile(path: string, bytes: Uint8Array | string): Promise<void> {
  const tmp = tempPathOf(path);
  try {
    await writeDurable(tmp, bytes);
    await rename(tmp, path);
  } catch (err) {
    await unlink(tmp).catch(() => undefined);
    throw err;
  }
  await syncDir(dirname(path));
}

/** A folder path where a file is, or with a file on the way to it: one line that says which. */
function notAFolder(dir: string, code: 'EEXIST' | 'ENOTDIR'): ListingsError {
  return new ListingsError(
    'not_a_folder',
    code === 'ENOTDIR' ? `${dir}: a file is in its path` : `${dir} is a file, not a folder`,
  );
}

/** Refuses a folder path that a file holds (or blocks); a folder that does not exist yet is fine. */
export async function checkFolder(dir: string): Promise<void> {
  let folder: boolean;
  try {
    folder = (await stat(dir)).isDirectory();
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return;
    if (code === 'ENOTDIR') throw notAFolder(dir, code);
    throw err;
  }
  if (!folder) throw notAFolder(dir, 'EEXIST');
}

/**
 * Makes a folder and its parents as needed (those it makes get `mode`); resolves to the first one it made, undefined
 * when it was there. A file where a folder goes is one line that says so.
 */
export async function makeFolder(dir: string, mode?: number): Promise<string | undefined> {
  try {
    return await mkdir(dir, { recursive: true, mode });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EEXIST' || code === 'ENOTDIR') throw notAFolder(dir, code);
    throw err;
  }
}

/** Removes `dir` and its parents up to `made` (what makeFolder made) while they are empty: a run that wrote nothing. */
export async function removeEmptyFolders(dir: string, made: string): Promise<void> {
  for (let path = dir; path.startsWith(made); path = dirname(path)) {
    try {
      await rmdir(path);
    } catch {
      return; // not empty (or gone): what is in it stays
    }
    if (path === made) return;
  }
}

export const LOCK_FILE = '.export.lock';

/** What a `--watch` publisher's lock says after its process id: it holds the lock until it is stopped. */
const WATCH_MARK = 'watch';

/**
 * Takes OUT/.export.lock (holding this process id, then `watch` for a --watch publisher); a lock left by a process
 * that no longer runs is taken over. A lock found empty is one whose maker has not written its id yet: it is read
 * again until the id is there, and taken over only if none comes (its maker died in between). Taking an empty file
 * for stale let two exports in at once.
 */
export async function lockOutput(dir: string, by: LockHolder = {}): Promise<() => Promise<void>> {
  const path = join(dir, LOCK_FILE);
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fh = await open(path, 'wx');
      await fh.writeFile(`${process.pid}${by.watch ? ` ${WATCH_MARK}` : ''}\n`);
      await fh.close();
      return () => unlink(path).catch(() => undefined);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const holder = await lockHolder(path);
      if (holder === undefined) continue; // released meanwhile
      const { pid, watch } = holder;
      if (pid > 0 && isRunning(pid)) {
        throw new ListingsError(
          'export_locked',
          watch
            ? heldByWatch(dir, `process ${pid}`)
            : `${dir} is being exported by process ${pid}; wait for it, or delete ${path} if that process is not an export`,
        );
      }
      await unlink(path).catch(() => undefined); // stale: its process is gone
    }
  }
  throw new ListingsError('export_locked', `${path}: could not take the export lock`);
}

/** How long a lock file may stay without its holder's id: its maker writes it right after creating the file. */
export const LOCK_ID_WAIT_MS = 1_000;

/** A target a `--watch` publisher holds: it never ends by itself, so waiting is no answer. */
export const heldByWatch = (target: string, who: string): string =>
  `${target} is held by a --watch publisher (${who}) for as long as it runs: stop it (Ctrl-C or SIGTERM), ` +
  'run this command, then start the watch again';

/** The id in a lock file once its maker has written it (pid 0 if none came in time); undefined if the file went. */
async function lockHolder(path: string): Promise<{ pid: number; watch: boolean } | undefined> {
  const deadline = Date.now() + LOCK_ID_WAIT_MS;
  for (;;) {
    let text: string;
    try {
      text = await readFile(path, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw err;
    }
    const [id, mark] = text.trim().split(' ');
    const pid = Number(id);
    if (text.endsWith('\n') && Number.isInteger(pid) && pid > 0) return { pid, watch: mark === WATCH_MARK };
    if (Date.now() >= deadline) return { pid: 0, watch: false };
    await delay(20);
  }
}

/** Whether a process with this id runs on this machine (EPERM: it runs, as another user). */
export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
