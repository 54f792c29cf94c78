// Builds the widget into one minified ES module with Lit inside (dist/widget/storage-listings.js), and prints its gzip size.
import { copyFileSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { defineConfig, type Plugin } from 'vite';

const outDir = fileURLToPath(new URL('../dist/widget', import.meta.url));
const fileName = 'storage-listings.js';
const BUDGET_BYTES = 18 * 1024;

/** Prints the figure the size budget (test/widget-size.test.ts) holds the bundle to. */
function gzipSize(): Plugin {
  return {
    name: 'storage-listings:gzip-size',
    apply: 'build',
    closeBundle() {
      // The type declarations (not part of the budget) travel with the bundle.
      copyFileSync(
        fileURLToPath(new URL('types/storage-listings.d.ts', import.meta.url)),
        `${outDir}/storage-listings.d.ts`,
      );
      const bundle = readFileSync(`${outDir}/${fileName}`);
      const gzipped = gzipSync(bundle).length;
      const kb = (n: number) => `${(n / 1024).toFixed(2)} KB`;
      process.stdout.write(
        `widget: dist/widget/${fileName} ${kb(bundle.length)}, gzip ${kb(gzipped)} (${gzipped} bytes; budget ${kb(BUDGET_BYTES)})\n`,
      );
    },
  };
}

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  publicDir: false,
  logLevel: 'warn',
  plugins: [gzipSize()],
  build: {
    outDir,
    emptyOutDir: true,
    target: 'es2022',
    minify: true,
    sourcemap: false,
    lib: {
      entry: fileURLToPath(new URL('src/define.ts', import.meta.url)),
      formats: ['es'],
      fileName: () => fileName,
    },
    // Library mode keeps whitespace and /*@__PURE__*/ comments for downstream bundlers; this file is loaded
    // as is by partner pages, so it gets the full minifier.
    rolldownOptions: { output: { minify: true, comments: false } },
  },
});
