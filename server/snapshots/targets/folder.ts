// A local folder as a publish target: each object written whole (temp file, fsync, rename), the lock a pid file.
import { readFile, rename } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ListingsError } from '../../errors.ts';
import { checkFolder, lockOutput, makeFolder, removeEmptyFolders, tempPathOf, writeDurable } from '../files.ts';
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
      await ensureDir(dirname(path));
      const tmp = tempPathOf(path); // one name per object: the lock admits one writer
      await writeDurable(tmp, bytes);
      await rename(tmp, path);
    },
    async lock() {
      const made = await makeFolder(root);
      const unlock = await lockOutput(root);
      // A run that wrote nothing (a withdraw with nothing to withdraw) leaves no folder of its making behind.
      return async () => {
        await unlock();
        if (made) await removeEmptyFolders(root, made);
      };
    },
    async close() {},
  };
}
