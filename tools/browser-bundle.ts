// How a browser bundle is built (the widget, the panel's script): one minified ES module with Lit inside, and its gzip
// size printed after the build. Each vite.config.ts names its entry, its output and what it adds.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import type { Plugin, UserConfig } from 'vite';

export interface BrowserBundle {
  /** The folder of the config: entry and outDir are relative to it. */
  root: URL;
  entry: string;
  outDir: string;
  fileName: string;
  /** Runs after the build with the bundle's bytes and gzip size; prints them unless it returns a line of its own. */
  built?: (bytes: Buffer, gzipped: number) => string | void;
}

export function browserBundle({ root, entry, outDir, fileName, built }: BrowserBundle): UserConfig {
  const out = fileURLToPath(new URL(outDir, root));
  const report: Plugin = {
    name: 'storage-listings:gzip-size',
    apply: 'build',
    closeBundle() {
      const bytes = readFileSync(`${out}/${fileName}`);
      const gzipped = gzipSync(bytes).length;
      const kb = (n: number) => `${(n / 1024).toFixed(2)} KB`;
      const line = built?.(bytes, gzipped) ?? '';
      process.stdout.write(
        `${outDir.replace(/^\.\.\//, '')}/${fileName}: ${kb(bytes.length)}, gzip ${kb(gzipped)} (${gzipped} bytes)${line}\n`,
      );
    },
  };
  return {
    root: fileURLToPath(root),
    publicDir: false,
    logLevel: 'warn',
    plugins: [report],
    build: {
      outDir: out,
      emptyOutDir: true,
      target: 'es2022',
      minify: true,
      sourcemap: false,
      lib: { entry: fileURLToPath(new URL(entry, root)), formats: ['es'], fileName: () => fileName },
      // Library mode keeps whitespace and /*@__PURE__*/ comments for downstream bundlers; these files are loaded as
      // they are by browsers, so they get the full minifier.
      rolldownOptions: { preserveEntrySignatures: 'allow-extension', output: { minify: true, comments: false } },
    },
  };
}
