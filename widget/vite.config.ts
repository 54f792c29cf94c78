// Builds the widget into one minified ES module with Lit inside (dist/widget/storage-listings.js), and prints its gzip size.
import { copyFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { browserBundle } from '../tools/browser-bundle.ts';
import { templateMinify } from './template-minify.ts';

const BUDGET_BYTES = 22 * 1024; // the one test/widget-size.test.ts holds the bundle to

const config = browserBundle({
  root: new URL('.', import.meta.url),
  entry: 'src/define.ts',
  outDir: '../dist/widget',
  fileName: 'storage-listings.js',
  built: () => {
    // The type declarations (not part of the budget) travel with the bundle.
    copyFileSync(
      fileURLToPath(new URL('types/storage-listings.d.ts', import.meta.url)),
      fileURLToPath(new URL('../dist/widget/storage-listings.d.ts', import.meta.url)),
    );
    // The figure the size budget (test/widget-size.test.ts) holds the bundle to.
    return `; budget ${(BUDGET_BYTES / 1024).toFixed(2)} KB`;
  },
});

export default defineConfig({ ...config, plugins: [templateMinify(), ...(config.plugins ?? [])] });
