// `snapshot keygen` never leaves a private key one `git add .` from a commit, and its hint repeats the paths given.
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cli, REPO, tempDir } from './helpers/fixture.ts';

let dir: ReturnType<typeof tempDir>;
const git = (...args: string[]) => spawnSync('git', args, { cwd: dir.dir, encoding: 'utf8' });

beforeEach(() => {
  dir = tempDir();
  expect(git('init', '-q').status).toBe(0);
});
afterEach(() => dir.cleanup());

describe('snapshot keygen in a git work tree', () => {
  it('refuses a folder git does not ignore: one line, exit 1, nothing written', () => {
    const r = cli(['snapshot', 'keygen', '--out', join(dir.dir, 'secrets')]);
    expect(r.status).toBe(1);
    expect(r.stderr.trimEnd().split('\n')).toEqual([
      expect.stringMatching(/^error: .*signing-key\.pem is inside the git work tree .* git does not ignore it/),
    ]);
    expect(existsSync(join(dir.dir, 'secrets', 'signing-key.pem'))).toBe(false);
    expect(git('status', '--porcelain').stdout).toBe('');
  });

  it("writes to the docs' own paths under the project's .gitignore, and git status stays clean", () => {
    copyFileSync(join(REPO, '.gitignore'), join(dir.dir, '.gitignore'));
    expect(git('add', '.gitignore').status).toBe(0);
    const out = join(dir.dir, 'data', 'secrets');
    const r = cli(['snapshot', 'keygen', '--out', out]);
    expect(r.status).toBe(0);
    expect(r.stderr).toContain(
      `Next: listings snapshot export --out ${join(dir.dir, 'data', 'public')} --signing-key ${join(out, 'signing-key.pem')}`,
    );
    expect(git('status', '--porcelain').stdout).toBe('A  .gitignore\n');
  });

  it('writes anywhere with --allow-unignored, and outside a work tree without it', () => {
    expect(cli(['snapshot', 'keygen', '--out', join(dir.dir, 'secrets'), '--allow-unignored']).status).toBe(0);
    const outside = tempDir();
    try {
      mkdirSync(join(outside.dir, 'k'));
      expect(cli(['snapshot', 'keygen', '--out', join(outside.dir, 'k')]).status).toBe(0);
    } finally {
      outside.cleanup();
    }
  });
});
