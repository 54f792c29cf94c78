// Builds the operator panel's Lit components into one minified ES module, dist/panel/panel.js, which the panel
// serves precompressed.
import { defineConfig } from 'vite';
import { browserBundle } from '../tools/browser-bundle.ts';

export default defineConfig(
  browserBundle({
    root: new URL('.', import.meta.url),
    entry: 'src/define.ts',
    outDir: '../dist/panel',
    fileName: 'panel.js',
  }),
);
