// The element's JSON-LD (`structured-data`), loaded as a chunk of its own when a page asks for it: most pages never do.
import type { Summary } from '../../shared/listing.ts';
import { leanSelfStorageOf } from '../../shared/structured-data-lean.ts';
import { jsonLdScript } from './json-ld.ts';

type FacilityOf = Parameters<typeof leanSelfStorageOf>[0];

/** Writes the listings into `script` (made once, rewritten in place: a refresh never leaves two offers for one listing). */
export function writeJsonLd(
  host: HTMLElement,
  script: HTMLScriptElement | undefined,
  facility: FacilityOf,
  listings: readonly Summary[],
): HTMLScriptElement {
  const kept = script ?? jsonLdScript();
  // "<" escaped, so the page stays valid HTML when serialized (an SSR snapshot, a saved page).
  const ld = JSON.stringify(leanSelfStorageOf(facility, listings));
  kept.replaceChildren(ld.replace(/</g, '\\u003c'));
  if (kept.parentNode !== host) host.append(kept);
  return kept;
}
