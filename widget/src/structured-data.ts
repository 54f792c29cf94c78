// The element's JSON-LD (`structured-data`), loaded as a chunk of its own when a page asks for it: most pages never do.
import type { Summary } from '../../shared/listing.ts';
import { leanOfferOf, leanSelfStorageOf } from '../../shared/structured-data-lean.ts';
import { jsonLdScript } from './json-ld.ts';
import { safeUrl } from './safe-url.ts';

type FacilityOf = Parameters<typeof leanSelfStorageOf>[0];

/**
 * Writes the listings into `script` (made once, rewritten in place: a refresh never leaves two offers for one listing).
 * Each Offer's `url` is its rent URL as the card links it: resolved against `base` (the data's URL), none unless http(s).
 */
export function writeJsonLd(
  host: HTMLElement,
  script: HTMLScriptElement | undefined,
  facility: FacilityOf,
  listings: readonly Summary[],
  base: string,
): HTMLScriptElement {
  const kept = script ?? jsonLdScript();
  const offerOf = (l: Summary) => ({ ...leanOfferOf(l), url: safeUrl(l.rent_url, base) ?? undefined });
  // "<" escaped, so the page stays valid HTML when serialized (an SSR snapshot, a saved page).
  const ld = JSON.stringify(leanSelfStorageOf(facility, listings, offerOf));
  kept.replaceChildren(ld.replace(/</g, '\\u003c'));
  if (kept.parentNode !== host) host.append(kept);
  return kept;
}
