// The widget's size budget and CSP hygiene, checked on the built bundle (`npm run build` runs before vitest in `npm test`).
import { readdirSync, readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';

const BUNDLE = new URL('../dist/widget/storage-listings.js', import.meta.url);
// Lit, its decorators, and everything the widget shows (the rental page's promotions, move-in and facility header with
// their words in three languages and the shared pricing a snapshot is priced with when shown) in 22 KiB.
const BUDGET_BYTES = 22 * 1024;

describe('dist/widget/storage-listings.js', () => {
  const source = readFileSync(BUNDLE);

  it(`is at most ${BUDGET_BYTES} bytes gzipped, Lit included`, () => {
    const gzipped = gzipSync(source).length;
    expect(gzipped).toBeGreaterThan(5 * 1024); // Lit alone is more: a smaller file means a broken build
    expect(gzipped).toBeLessThanOrEqual(BUDGET_BYTES);
  });

  it('carries no zod: the contract reaches the widget as types only (a value imported from shared/listing.ts brings it)', () => {
    expect(source.toString('utf8')).not.toMatch(/_zod|ZodError/);
  });

  it('runs under a strict CSP: no eval, no new Function', () => {
    const text = source.toString('utf8');
    expect(/\beval\s*\(/.test(text)).toBe(false);
    expect(/new\s+Function\b/.test(text)).toBe(false);
  });

  it('imports nothing up front: its only imports are its own chunks, beside it, loaded on demand', () => {
    const text = source.toString('utf8');
    const imports = text.match(/(?<![.\w$])import[\s{*("'`][^;]{0,80}/g) ?? []; // not .importNode / .importKey
    expect(imports.length).toBeGreaterThan(0);
    for (const i of imports) expect(i).toMatch(/^import\(`?["'`]?\.\/[\w-]+\.js/);
    expect(/customElements\.define\([`"']storage-listings[`"']/.test(text)).toBe(true);
  });
});

describe("the widget's chunks", () => {
  const dir = new URL('../dist/widget/', import.meta.url);
  const chunks = readdirSync(dir).filter((f) => f.endsWith('.js') && f !== 'storage-listings.js');

  it('are there, each small, importing only from the first module, with no eval', () => {
    expect(chunks.length).toBeGreaterThan(0);
    for (const name of chunks) {
      const text = readFileSync(new URL(name, dir), 'utf8');
      expect(gzipSync(text).length, name).toBeLessThanOrEqual(4 * 1024);
      for (const [, from] of text.matchAll(/\bfrom\s*["'`]([^"'`]+)["'`]/g)) expect(from).toBe('./storage-listings.js');
      expect(/\beval\s*\(|new\s+Function\b/.test(text)).toBe(false);
    }
  });
});
