// Where `snapshot keygen` may write a private key: never inside a git work tree where git would not ignore it, so the
// key is never one `git add .` from a commit.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { ListingsError } from '../../server/errors.ts';

/** The work tree holding `dir` (which may not exist yet), found by its `.git` as git finds it. */
function workTreeOf(dir: string): string | undefined {
  for (let at = resolve(dir); ; at = dirname(at)) {
    if (existsSync(join(at, '.git'))) return at;
    if (dirname(at) === at) return undefined;
  }
}

/** Refuses `file` when it lies in a git work tree and git does not ignore it; `git check-ignore` decides, as git add would. */
export function refuseUnignoredKey(file: string): void {
  const tree = workTreeOf(dirname(file));
  if (tree === undefined) return;
  const check = spawnSync('git', ['check-ignore', '-q', '--no-index', resolve(file)], { cwd: tree });
  // 0: ignored; 1: not ignored; anything else (no git on PATH, a broken repository): nothing git would add either.
  if (check.status !== 1) return;
  throw new ListingsError(
    'key_not_ignored',
    `${file} is inside the git work tree ${tree} and git does not ignore it: write the key outside it or to an ignored folder (data/ is), add the folder to .gitignore, or pass --allow-unignored`,
  );
}
