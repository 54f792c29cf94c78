// The widget's size budget and CSP hygiene, checked on the built bundle (`npm run build` runs before vitest in `npm test`):
// the first modules a page loads (the entry and its core chunk), and each chunk it imports on demand.
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
/** What the entry imports: Lit and everything a list of cards shows, under a name that holds its hash. */
const CORE = 'core';
const CHUNKS = ['core', 'details-dialog', 'facility-header', 'structured-data'];

const text = (file: string) => readFileSync(`${DIST}${file}`, 'utf8');
const gzipped = (file: string) => gzipSync(readFileSync(`${DIST}${file}`)).length;

describe('dist/widget/storage-listings.js and its chunks', () => {
  const chunks = chunksIn(DIST);
  const files = [ENTRY, ...chunks];
  const core = chunks.find((c) => c.startsWith(`chunks/${CORE}-`))!;
  const onDemand = chunks.filter((c) => c !== core);

  it(`holds the entry and its core to ${BUDGET_BYTES} bytes gzipped, Lit included, and each chunk to ${CHUNK_CAP_BYTES}`, () => {
    const sizes = files.map((file) => `${file}: ${gzipped(file)} B gzip`);
    console.error(`widget bundle: ${sizes.join(', ')}`);
    const first = gzipped(ENTRY) + gzipped(core);
    expect(first).toBeGreaterThan(5 * 1024); // Lit alone is more: a smaller file means a broken build
    expect(first).toBeLessThanOrEqual(BUDGET_BYTES);
    expect(gzipped(ENTRY)).toBeLessThanOrEqual(512); // the entry only imports the core and registers the element
    for (const chunk of onDemand) expect(gzipped(chunk), chunk).toBeLessThanOrEqual(CHUNK_CAP_BYTES);
  });

  it('loads the core, then the details dialog, the facility header and the JSON-LD as chunks, and nothing else', () => {
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

  it('imports nothing for the page to resolve, and nothing imports the entry: it may be named with a query string', () => {
    const entry = text(ENTRY);
    const staticFrom = (file: string) => [...text(file).matchAll(/from\s*["'`]([^"'`]+)["'`]/g)].map((m) => m[1]);
    expect(staticFrom(ENTRY)).toEqual([`./${core}`]);
    expect(/customElements\.define\([`"']storage-listings[`"']/.test(entry)).toBe(true);
    const coreText = text(core);
    expect(coreText.match(/(?<![.\w$])import[\s{*`]/g) ?? []).toEqual([]); // no static import; not .importNode/.importKey
    const dynamic = [...coreText.matchAll(/(?<![.\w$])import\(\s*["'`]([^"'`]+)["'`]\s*\)/g)].map((m) => m[1]).sort();
    expect(dynamic).toEqual(onDemand.map((c) => `./${c.replace('chunks/', '')}`).sort());
    for (const chunk of onDemand) {
      const from = staticFrom(chunk);
      expect(from.length, chunk).toBeGreaterThan(0);
      expect(
        from.every((specifier) => specifier === `./${core.replace('chunks/', '')}`),
        `${chunk}: ${from.join(', ')}`,
      ).toBe(true);
    }
    for (const file of files) expect(text(file), file).not.toContain(ENTRY);
  });
});
