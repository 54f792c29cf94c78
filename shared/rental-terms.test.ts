// The pricing module is what the widget bundles: it builds for the browser from its own files, nothing of Node or zod.
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';

describe('the pricing module in a browser bundle', () => {
  it('bundles alone for the browser: its own files only, no Node built-in, no zod (types are erased)', async () => {
    const result = await build({
      entryPoints: [new URL('./rental-terms.ts', import.meta.url).pathname],
      bundle: true,
      platform: 'browser',
      format: 'esm',
      write: false,
      metafile: true,
      logLevel: 'silent',
      absWorkingDir: new URL('..', import.meta.url).pathname,
    });
    expect(Object.keys(result.metafile.inputs).sort()).toEqual([
      'shared/move-in.ts',
      'shared/pricing.ts',
      'shared/promotions.ts',
      'shared/rental-terms.ts',
    ]);
    expect(result.outputFiles[0]!.text).toMatch(/export\s*\{[^}]*rentalTermsOf/);
  });
});
