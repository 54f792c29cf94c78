// Whether dist/ holds a build of the sources as they are now, and a rebuild when it does not: for tests and benches,
// which run the compiled `listings` binary, the built widget and the panel's script. Dev only: production runs dist/ as npm built it.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** Every file in dist/server/sources.json still has the size and modification time it had at build time. */
export function bundleIsCurrent(root: URL): boolean {
  try {
    const { files } = JSON.parse(readFileSync(new URL('dist/server/sources.json', root), 'utf8')) as { files: unknown };
    return (
      Array.isArray(files) &&
      files.length > 0 &&
      files.every(([path, size, mtimeMs]: [string, number, number]) => {
        const s = statSync(new URL(path, root));
        return s.size === size && s.mtimeMs === mtimeMs;
      })
    );
  } catch {
    return false; // no bundle, a source gone, an unreadable manifest
  }
}

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(p) : statSync(p).mtimeMs);
  }
  return newest;
}

/** A browser bundle is newer than every source folder it is built from and its build config (and the shared one). */
function browserBundleIsCurrent(root: string, bundle: string, sources: string[], config: string): boolean {
  try {
    const configs = [config, 'tools/browser-bundle.ts'].map((file) => statSync(join(root, file)).mtimeMs);
    const newest = Math.max(...sources.map((dir) => newestMtime(join(root, dir))), ...configs);
    return statSync(join(root, bundle)).mtimeMs >= newest;
  } catch {
    return false;
  }
}

/** The widget bundle is newer than every widget source, the shared/ code it bundles, and its build config. */
export function widgetIsCurrent(root = ROOT): boolean {
  return browserBundleIsCurrent(
    root,
    'dist/widget/storage-listings.js',
    ['widget/src', 'shared'],
    'widget/vite.config.ts',
  );
}

/** The operator panel's bundle (its Lit components) likewise. */
export function panelIsCurrent(root = ROOT): boolean {
  return browserBundleIsCurrent(root, 'dist/panel/panel.js', ['panel/src', 'shared'], 'panel/vite.config.ts');
}

/** Runs `npm run build` when any bundle is missing or older than its sources; returns whether it built. */
export function ensureBuilt(log: (line: string) => void = () => {}): boolean {
  if (bundleIsCurrent(new URL('..', import.meta.url)) && widgetIsCurrent() && panelIsCurrent()) return false;
  log('dist/ is missing or older than the sources: npm run build');
  // A production build whoever asks: under vitest NODE_ENV is "test", and Vite would bundle Lit's development build.
  execFileSync('npm', ['run', 'build'], {
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, NODE_ENV: 'production' },
  });
  return true;
}

// `npm start` runs this first (prestart): a build only when a source changed, so a demo start does not rewrite dist/
// under a running test or server.
if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  ensureBuilt((line) => process.stderr.write(`${line}\n`));
}
