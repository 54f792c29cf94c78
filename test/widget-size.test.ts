// The widget's size budget and CSP hygiene, checked on the built bundle (`npm run build` runs before vitest in `npm test`):
// the first module a page loads, and each chunk it imports on demand.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { chunksIn } from '../tools/browser-bundle.ts';

const DIST = fileURLToPath(new URL('../dist/widget/', import.meta.url));
const ENTRY = 'storage-listings.js';
// Lit, its decorators, and everything a list of cards shows (promotions with their words in three languages, and the
// shared pricing a snapshot is priced with) in 22 KiB; what a visitor may never open comes as chunks.
const BUDGET_BYTES = 22 * 1024;
/** A chunk is one part on demand, not a second bundle. */
const CHUNK_CAP_BYTES = 4 * 1024;
const CHUNKS = ['details-dialog', 'facility-header', 'structured-data'];

const text = (file: string) => readFileSync(`${DIST}${file}`, 'utf8');
const gzipped = (file: string) => gzipSync(readFileSync(`${DIST}${file}`)).length;

describe('dist/widget/storage-listings.js and its chunks', () => {
  const chunks = chunksIn(DIST);
  const files = [ENTRY, ...chunks];

  it(`holds the entry to ${BUDGET_BYTES} bytes gzipped, Lit included, and each chunk to ${CHUNK_CAP_BYTES}`, () => {
    const sizes = files.map((file) => `${file}: ${gzipped(file)} B gzip`);
    console.error(`widget bundle: ${sizes.join(', ')}`);
    expect(gzipped(ENTRY)).toBeGreaterThan(5 * 1024); // Lit alone is more: a smaller file means a broken build
    expect(gzipped(ENTRY)).toBeLessThanOrEqual(BUDGET_BYTES);
    for (const chunk of chunks) expect(gzipped(chunk), chunk).toBeLessThanOrEqual(CHUNK_CAP_BYTES);
  });

  it('loads the details dialog, the facility header and the JSON-LD as chunks, and nothing else', () => {
    const names = chunks.map((c) => /^chunks\/(.+)-[\w-]{8}\.js$/.exec(c)?.[1]).sort();
    expect(names).toEqual(CHUNKS);
  });

  it('carries no zod: the contract reaches the widget as types only (a value imported from shared/listing.ts brings it)', () => {
    for (const file of files) expect(text(file), file).not.toMatch(/_zod|ZodError/);
  });

  it('runs under a strict CSP: no eval, no new Function', () => {
    for (const file of files) {
      expect(/\beval\s*\(/.test(text(file)), file).toBe(false);
      expect(/new\s+Function\b/.test(text(file)), file).toBe(false);
    }
  });

  it('imports nothing for the page to resolve: the entry only its chunks, by relative URL, the chunks only the entry', () => {
    const entry = text(ENTRY);
    expect(entry.match(/(?<![.\w$])import[\s{*`]/g) ?? []).toEqual([]); // no static import; not .importNode/.importKey
    const dynamic = [...entry.matchAll(/(?<![.\w$])import\(\s*["'`]([^"'`]+)["'`]\s*\)/g)].map((m) => m[1]).sort();
    expect(dynamic).toEqual(chunks.map((c) => `./${c}`).sort());
    for (const chunk of chunks) {
      const from = [...text(chunk).matchAll(/from\s*["'`]([^"'`]+)["'`]/g)].map((m) => m[1]);
      expect(from.length, chunk).toBeGreaterThan(0);
      expect(
        from.every((specifier) => specifier === `../${ENTRY}`),
        `${chunk}: ${from.join(', ')}`,
      ).toBe(true);
    }
    expect(/customElements\.define\([`"']storage-listings[`"']/.test(entry)).toBe(true);
  });
});
