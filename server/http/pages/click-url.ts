// GET /go/{facility}/{code}?ref=REF: a partner's rent link. Redirects to the listing's own rent target (never to a URL
// the request names) with the partner's parameters, and counts the click when it is a person's, for a key's ref.
import { declaresBot, GO_PREFIX, isPrefetch, referralUrl } from '../../domain/referral.ts';
import { REF_PATTERN } from '../../domain/key-ref.ts';
import type { PageCache } from '../views/page-cache.ts';
import { header, heldBack, type Answer, type RequestLike } from '../transport/answer.ts';
import { BUSY_HOLD_MS, busyPage, listingOfPath, notFoundPage } from './rental-page.ts';
import type { ClickCounter } from './click-counter.ts';
import type { LRUCache } from 'lru-cache';

export interface ClickParts {
  /** The listings' rent targets (`rent_url`), kept as rental pages are, by facility and code. */
  targets: PageCache;
  /** The refs of the facility's unrevoked keys. */
  refsOf: (facilityId: string) => ReadonlySet<string>;
  clicks: ClickCounter;
  /** Rent targets with a partner's parameters, by ref and target: a URL parse and serialisation each (memo.ts). */
  locations: LRUCache<string, string>;
}

/** Targets with parameters remembered: about 250 bytes each. */
export const MAX_KEPT_LOCATIONS = 10_000;

const REDIRECT_HEADERS = Object.freeze({
  'cache-control': 'no-store',
  'referrer-policy': 'strict-origin-when-cross-origin',
  'x-robots-tag': 'noindex',
});

export function clickAnswer(
  parts: ClickParts,
  req: RequestLike,
  path: string,
  search: string,
  mayRender?: () => boolean,
): Answer {
  const listing = listingOfPath(path, GO_PREFIX);
  const target = listing && parts.targets.pageOf(listing.facilityId, listing.code, (d) => d.rent_url, mayRender);
  if (target === 'busy') return heldBack(busyPage(), BUSY_HOLD_MS);
  if (!target) return notFoundPage(header(req, 'accept-language'));
  const ref = new URLSearchParams(search).get('ref');
  const partner = ref !== null && REF_PATTERN.test(ref) ? ref : undefined;
  const location = partner ? locationOf(parts.locations, target.toString(), partner) : target.toString();
  if (partner && counts(req) && parts.refsOf(listing!.facilityId).has(partner))
    parts.clicks.count(listing!.facilityId, listing!.code, partner, req.remoteAddress, header(req, 'user-agent')!);
  return { status: 302, headers: { ...REDIRECT_HEADERS, location }, body: null };
}

function locationOf(locations: LRUCache<string, string>, target: string, ref: string): string {
  const key = `${ref} ${target}`;
  let location = locations.get(key);
  if (location === undefined) locations.set(key, (location = referralUrl(target, ref)));
  return location;
}

/** A person's click: a GET, not a browser's prefetch, from a client that does not call itself a robot. */
const counts = (req: RequestLike): boolean =>
  req.method === 'GET' &&
  !isPrefetch(header(req, 'sec-purpose'), header(req, 'purpose')) &&
  !declaresBot(header(req, 'user-agent'));
