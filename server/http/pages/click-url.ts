// GET /go/{facility}/{code}?ref=REF: a partner's rent link. Redirects to the listing's own rent target (never to a URL
// the request names) with the partner's parameters, and counts the click when it is a person's, for a key's ref.
import { declaresBot, GO_PREFIX, isPrefetch, referralUrl } from '../../domain/referral.ts';
import { REF_PATTERN } from '../../domain/key-ref.ts';
import type { PageCache } from '../views/page-cache.ts';
import { header, heldBack, type Answer, type RequestLike } from '../transport/answer.ts';
import { BUSY_HOLD_MS, busyPage, listingOfPath, notFoundPage } from './rental-page.ts';
import type { ClickCounter } from './click-counter.ts';
import type { LRUCache } from 'lru-cache';
import { memoBy } from '../memo.ts';

export interface ClickParts {
  /** The listings' rent targets (`rent_url`), kept as rental pages are, by facility and code. */
  targets: PageCache;
  /** The refs of the facility's unrevoked keys. */
  refsOf: (facilityId: string) => ReadonlySet<string>;
  clicks: ClickCounter;
  /** Rent targets with a partner's parameters (keptLocations). */
  locations: Locations;
}

type Locations = LRUCache<string, string, { target: string; ref: string }>;

/** Rent targets with a partner's parameters, by ref and target, about 250 bytes each: a URL parse and serialisation each. */
export const keptLocations = (): Locations =>
  memoBy(10_000, (_key, { target, ref }: { target: string; ref: string }) => referralUrl(target, ref));

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
  if (target === 'busy') return heldBack(busyPage(header(req, 'accept-language')), BUSY_HOLD_MS);
  if (!target) return notFoundPage(header(req, 'accept-language'));
  const ref = new URLSearchParams(search).get('ref');
  const partner = ref !== null && REF_PATTERN.test(ref) ? ref : undefined;
  const url = target.bytes.toString();
  const location = partner
    ? parts.locations.memo(`${partner} ${url}`, { context: { target: url, ref: partner } })
    : url;
  if (partner && counts(req) && parts.refsOf(listing!.facilityId).has(partner))
    parts.clicks.count(listing!.facilityId, listing!.code, partner, req.remoteAddress, header(req, 'user-agent')!);
  return { status: 302, headers: { ...REDIRECT_HEADERS, location }, body: null };
}

/** A person's click: a GET, not a browser's prefetch, from a client that does not call itself a robot. */
const counts = (req: RequestLike): boolean =>
  req.method === 'GET' &&
  !isPrefetch(header(req, 'sec-purpose'), header(req, 'purpose')) &&
  !declaresBot(header(req, 'user-agent'));
