// A local folder as a publish target: each object written whole (temp file, fsync, rename), the lock a pid file.
import { readFile, rename, rmdir, unlink } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ListingsError } from '../../errors.ts';
import { checkFolder, lockOutput, makeFolder, removeEmptyFolders, writeDurable } from '../files.ts';
import { sweepInterrupted, TEMP_DIR, tempPathFor } from './folder-temp.ts';
import type { Target } from './target.ts';

export function folderTarget(dir: string): Target {
  const root = resolve(dir);
  // Folders made in this run: a publish makes one per version, and 1,000 mkdir calls for existing folders add up.
  const made = new Map<string, Promise<unknown>>();
  const ensureDir = (path: string) => {
    let done = made.get(path);
    if (!done) {
      done = makeFolder(path);
      made.set(path, done);
    }
    return done;
  };
  const tempDir = join(root, TEMP_DIR);
  // Made under the lock, removed on its release: a finished run leaves no hidden folder in the output.
  let tempReady: Promise<unknown> | undefined;
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
      await (tempReady ??= makeFolder(tempDir));
      try {
        // The temp file before the version's folder: a kill in between leaves that folder empty with its temp on record.
        await writeDurable(tmp, bytes);
        await ensureDir(dirname(path));
        await rename(tmp, path);
      } catch (err) {
        await unlink(tmp).catch(() => undefined);
        throw err;
      }
    },
    async lock() {
      const made = await makeFolder(root);
      const unlock = await lockOutput(root);
      await sweepInterrupted(root);
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
