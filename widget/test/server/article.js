// An article page with text above and below one widget, for the layout-shift tests, and the built widget served
// late (as over a slow network), so that the page paints before the module runs.
import { readFile } from 'node:fs/promises';
import { tsImport } from 'tsx/esm/api';
import { API_KEY } from './fixtures.js';

const { DEFAULT_EMBED, embedSnippet } = await tsImport('../../../shared/embed-options.ts', import.meta.url);

/** The README's `<storage-listings>` (with what it holds), exactly as a partner copies it. */
const README_ELEMENT = /<storage-listings api-key[^>]*>.*?<\/storage-listings>/.exec(
  await readFile(new URL('../../../README.md', import.meta.url), 'utf8'),
)?.[0];
if (!README_ELEMENT) throw new Error("README.md: no <storage-listings api-key=...> in its partners' two tags");

const DIST = new URL('../../../dist/widget/', import.meta.url);
/** Long enough for the page's first paint to come before the module runs. */
const MODULE_DELAY_MS = 400;

/** A file of the built widget (dist/widget/), after a delay; undefined when there is no such file. */
export async function slowModule(name) {
  await new Promise((resolve) => setTimeout(resolve, MODULE_DELAY_MS));
  return readFile(new URL(name, DIST)).catch(() => undefined);
}

const PARAGRAPH = '<p>Storage near the river: what to pack first, how to label boxes, and when to book a van.</p>';
/** One paragraph above the element, so that it starts in the first screen with text below it, where a shift shows. */
const INTRO = PARAGRAPH;
const TEXT = PARAGRAPH.repeat(6);

/**
 * The article, `w` naming the tags: `bare`, the README's two (its element as written there), for six listings
 * (three skeletons: the element cannot know how many before its data), `bare-limit` and `bare-facility` with a partner's
 * limit="1" or show-facility added to them; `live` and `snap`, the panel's snippet, `-facility`
 * adding show-facility; `live-facility-none` for a facility with nothing for the header, `live-facility-empty` with
 * available-only and every unit taken. The module comes late, and a `late` token delays the data.
 */
export const articlePage = (token, w) => {
  // A URL of the page's own: a module another frame fetched would come from the browser's memory, before the paint.
  const module = `/slow-module/storage-listings.js?t=${token}`;
  const facility = w.includes('-facility');
  const [none, empty] = [w.endsWith('-none'), w.endsWith('-empty')];
  const snap = `/snap/@${token}/${facility ? 'promotions' : 'valid'}`;
  const api = `/api/${empty ? 'terms-empty' : facility && !none ? 'terms' : 'basic'}/${token}`;
  const source = w.startsWith('snap') ? 'snapshot' : 'key';
  const options = { ...DEFAULT_EMBED, source, show_facility: facility, available_only: empty };
  const from = { publicUrl: api, facilityId: 'wro-1', keyText: API_KEY, cards: empty ? 0 : 3, facilityHeader: !none };
  const snippet = embedSnippet(options, from)
    .replace(/<script [^>]*><\/script>/, `<script type="module" src="${module}"></script>`)
    .replace(
      /src="https:\/\/cdn.example\/wro-1\/listings.json" keys-url="[^"]*"/,
      `src="${snap}/listings.json" keys-url="/snap/keys.json"`,
    );
  // A partner's additions to the README's tags: limit="1", or show-facility (with a facility that has a header).
  const added = { 'bare-limit': ' limit="1"', 'bare-facility': ' show-facility' }[w] ?? '';
  const bareApi = `/api/${w === 'bare-facility' ? 'terms' : 'codes'}/${token}`;
  const bare = `<script type="module" src="${module}"></script>
    ${README_ELEMENT.replace(/api-key="[^"]*"/, `api-key="${API_KEY}"`).replace(/api-base="[^"]*"/, `api-base="${bareApi}"${added}`)}`;
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>An article with storage-listings</title>
  </head>
  <body style="font: 16px/1.5 serif; margin: 1rem">
    <h1>Moving house</h1>${INTRO}
    ${w.startsWith('bare') ? bare : snippet}
    <h2>After the move</h2>${TEXT}
  </body>
</html>`;
};
