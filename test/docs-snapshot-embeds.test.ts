// The docs' snapshot embeds point `keys-url` where publishing puts keys.json: beside the facility folders that `src`
// names (OUT/keys.json, OUT/<facility>/listings.json), on the static host or CDN. `listings serve` has no /keys.json.
import { describe, expect, it } from 'vitest';
import { readDocs } from './helpers/doc-blocks.ts';
import { REPO } from './helpers/fixture.ts';

/** Every `<storage-listings>` tag in the docs with both `src` and `keys-url` as absolute URLs. */
function snapshotEmbeds(): { doc: string; src: string; keysUrl: string }[] {
  return [...readDocs(REPO)].flatMap(([doc, text]) =>
    [...text.matchAll(/<storage-listings\b[^>]*>/g)].flatMap(([tag]) => {
      const src = /\ssrc="(https?:[^"]+)"/.exec(tag)?.[1];
      const keysUrl = /\skeys-url="(https?:[^"]+)"/.exec(tag)?.[1];
      return src && keysUrl ? [{ doc, src, keysUrl }] : [];
    }),
  );
}

describe("the docs' snapshot embeds", () => {
  it('are found in publishing.md and widget.md', () => {
    const docs = new Set(snapshotEmbeds().map((e) => e.doc));
    expect(docs).toContain('docs/publishing.md');
    expect(docs).toContain('docs/widget.md');
  });

  it.each(snapshotEmbeds())('$doc: keys-url is the keys.json published beside src ($keysUrl)', ({ src, keysUrl }) => {
    expect(keysUrl).toBe(new URL('../keys.json', src).href);
  });
});
