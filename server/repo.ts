// The repository's root (the widget bundle, server assets, demo pages live below it), found the same way whether this
// code runs from its TypeScript sources or from the compiled bundle in dist/server/: the nearest folder with package.json.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

function rootFrom(dir: string): string {
  for (let d = dir; ; d = dirname(d)) {
    if (existsSync(join(d, 'package.json'))) return d;
    if (dirname(d) === d) throw new Error(`no package.json above ${dir}`);
  }
}

export const REPO_ROOT = rootFrom(dirname(fileURLToPath(import.meta.url)));
