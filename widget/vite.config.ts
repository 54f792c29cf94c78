// Builds the widget: a small entry (dist/widget/storage-listings.js, the name partners link) that imports its core chunk
// (Lit and everything a list of cards shows), the chunks loaded on demand, and prints their gzip sizes.
import { copyFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { browserBundle } from '../tools/browser-bundle.ts';
import { templateMinify } from './template-minify.ts';

const BUDGET_BYTES = 22 * 1024; // the one test/widget-size.test.ts holds the entry and its core to

const config = browserBundle({
  root: new URL('.', import.meta.url),
  entry: 'src/define.ts',
  outDir: '../dist/widget',
  fileName: 'storage-listings.js',
  core: 'core',
  built: () => {
    // The type declarations (not part of the budget) travel with the bundle.
    copyFileSync(
      fileURLToPath(new URL('types/storage-listings.d.ts', import.meta.url)),
      fileURLToPath(new URL('../dist/widget/storage-listings.d.ts', import.meta.url)),
    );
    // The figure the size budget (test/widget-size.test.ts) holds the entry and its core to.
    return `; budget ${(BUDGET_BYTES / 1024).toFixed(2)} KB`;
  },
});

export default defineConfig({ ...config, plugins: [templateMinify(), ...(config.plugins ?? [])] });
