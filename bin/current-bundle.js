// Whether dist/server/listings.mjs was built from the sources as they are now: every file in dist/server/sources.json
// still has the size and modification time it had at build time. Plain JavaScript: it runs before any loader.
import { readFileSync, statSync } from 'node:fs';

/** @param {URL} root the repository's root, ending in a slash */
export function bundleIsCurrent(root) {
  try {
    const { files } = JSON.parse(readFileSync(new URL('dist/server/sources.json', root), 'utf8'));
    return (
      Array.isArray(files) &&
      files.length > 0 &&
      files.every(([path, size, mtimeMs]) => {
        const s = statSync(new URL(path, root));
        return s.size === size && s.mtimeMs === mtimeMs;
      })
    );
  } catch {
    return false; // no bundle, a source gone, an unreadable manifest: run the sources
  }
}
