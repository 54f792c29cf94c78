// A fresh clone of the working tree's HEAD, as a newcomer has after `git clone`, with node_modules linked from the
// working tree so that no test downloads packages: npm's install commands there only build, and prune is refused.
import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { which } from '../../tools/test-programs.js';
import { REPO, tempDir } from './fixture.ts';
import { writeScript } from './setup-script.ts';

export interface FreshClone {
  /** The clone's root, where every block starts. */
  repo: string;
  /** A folder that stands for / in production blocks (`/var/lib/listings`, `/etc/listings`): no test writes outside. */
  root: string;
  /** HOME for its shells: no dotfiles, no npm cache. */
  home: string;
  /** PATH as a newcomer's shell has it, with npm in front (see npmStandIn). */
  path: string;
  cleanup(): void;
}

/**
 * npm for the clone: `npm install` and `npm ci` run only what they run after installing (`prepare`, the build), since
 * node_modules is the working tree's; `npm prune` and the like, which would delete the working tree's packages, do
 * nothing. Everything else is npm itself, with no update check over the network.
 */
function npmStandIn(bin: string): void {
  const npm = which('npm');
  if (!npm) throw new Error('npm is not on PATH');
  writeScript(
    join(bin, 'npm'),
    [
      'export npm_config_update_notifier=false npm_config_fund=false npm_config_audit=false',
      'case "$1" in',
      `  install|i|ci) echo "npm $1: node_modules is linked from the working tree; only its prepare script runs"; exec ${npm} run prepare ;;`,
      '  prune|uninstall|update|dedupe|link) echo "npm $1: skipped, node_modules is linked from the working tree"; exit 0 ;;',
      'esac',
      `exec ${npm} "$@"`,
    ].join('\n'),
  );
}

export function freshClone(): FreshClone {
  const { dir, cleanup } = tempDir('listings-clone-');
  const repo = join(dir, 'repo');
  execFileSync('git', ['clone', '--quiet', REPO, repo], { stdio: ['ignore', 'ignore', 'pipe'] });
  symlinkSync(join(REPO, 'node_modules'), join(repo, 'node_modules'));
  const bin = join(dir, 'bin');
  const root = join(dir, 'root');
  const home = join(dir, 'home');
  for (const d of [bin, root, home]) mkdirSync(d);
  npmStandIn(bin);
  const path = [bin, dirname(process.execPath), '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin'].join(
    delimiter,
  );
  return { repo, root, home, path, cleanup };
}
