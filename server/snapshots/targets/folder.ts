// A local folder as a publish target: each object written whole (temp file, fsync, rename), the lock a pid file.
import { mkdir, readFile, rename, rmdir, unlink } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ListingsError } from '../../errors.ts';
import { checkFolder, lockOutput, makeFolder, removeEmptyFolders, writeDurable } from '../files.ts';
import { sweepBesideTemps, sweepInterrupted, TEMP_DIR, tempPathFor } from './folder-temp.ts';
import type { Target } from './target.ts';

export function folderTarget(dir: string): Target {
  const root = resolve(dir);
  // Folders made in this run: a publish makes one per version, and 1,000 mkdir calls for existing folders add up.
  const made = new Map<string, Promise<unknown>>();
  const ensureDir = (path: string) => {
    let done = made.get(path);
    if (!done) {
      done = makeBelow(root, path);
      made.set(path, done);
    }
    return done;
  };
  const tempDir = join(root, TEMP_DIR);
  // Made under the lock, removed on its release: a finished run leaves no hidden folder in the output.
  let tempReady: Promise<unknown> | undefined;
  // An older release's temp files beside the objects: only it made them, so one sweep per target will do.
  let besideSwept: Promise<void> | undefined;
  return {
    label: root,
    recordKey: pathToFileURL(root).href,
    async get(key) {
      try {
        return await readFile(join(root, key));
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        if (code === 'ENOENT') return undefined;
        if (code === 'ENOTDIR') await checkFolder(root); // the folder itself is a file: say so
        throw new ListingsError(
          'unreadable_file',
          `${join(root, key)}: cannot read: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`,
        );
      }
    },
    async put(key, bytes) {
      const path = join(root, key);
      const tmp = tempPathFor(root, key);
      try {
        await (tempReady ??= makeBelow(root, tempDir));
        // The temp file before the version's folder: a kill in between leaves that folder empty with its temp on record.
        await writeDurable(tmp, bytes);
        await ensureDir(dirname(path));
        await rename(tmp, path);
      } catch (err) {
        await unlink(tmp).catch(() => undefined);
        // Folders made before may be gone (the folder moved away, or removed): the next write makes them again.
        tempReady = undefined;
        made.clear();
        throw failed(path, 'write', err);
      }
    },
    async lock(holder) {
      let made: string | undefined;
      let unlock: () => Promise<unknown>;
      try {
        made = await makeFolder(root);
        unlock = await lockOutput(root, holder);
      } catch (err) {
        throw failed(root, 'lock', err);
      }
      try {
        await sweepInterrupted(root);
        await (besideSwept ??= sweepBesideTemps(root));
      } catch (err) {
        besideSwept = undefined;
        await unlock();
        throw failed(root, 'clean', err);
      }
      return async () => {
        tempReady = undefined;
        await rmdir(tempDir).catch(() => undefined); // before the unlock: the next holder may be writing in it after
        await unlock();
        // A run that wrote nothing (a withdraw with nothing to withdraw) leaves no folder of its making behind.
        if (made) await removeEmptyFolders(root, made);
      };
    },
    async close() {},
  };
}

/**
 * A file system error as one line that names the path, as a store's failure is: a publish (or a --watch round) fails
 * with it and the next one tries again. Our own errors (a file where a folder goes) pass as they are.
 */
function failed(path: string, what: 'write' | 'lock' | 'clean', err: unknown): ListingsError {
  if (err instanceof ListingsError) return err;
  const why = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
  return new ListingsError('publish_failed', `${path}: cannot ${what}: ${why}`);
}

/**
 * A folder below `root`, and those between, one level at a time: never `root` itself, which the lock made. A target
 * folder moved away (a mount gone) then fails each write, instead of being started again as a partial copy.
 */
async function makeBelow(root: string, path: string): Promise<void> {
  const below = relative(root, path);
  let at = root;
  for (const part of below === '' ? [] : below.split(sep)) {
    at = join(at, part);
    await mkdir(at).catch(async (err: NodeJS.ErrnoException) => {
      if (err.code !== 'EEXIST') throw err;
      await checkFolder(at); // a file where the folder goes: say so
    });
  }
}
