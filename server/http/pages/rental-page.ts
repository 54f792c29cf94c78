// The operator's public rental page, /rent/{facility}/{code}, as the server answers it: the kept page in the language
// asked for (its HTML: rental-html.ts), the unknown unit's page, and the refusals a person can read.
import { memoBy } from '../memo.ts';
import type { Facility } from '../../domain/facility.ts';
import type { Detail } from '../../../shared/listing.ts';
import type { PageCache } from '../views/page-cache.ts';
import { header, heldBack, type Answer, type RequestLike } from '../transport/answer.ts';
import { Codings } from '../transport/encoding.ts';
import { etagMatches } from '../transport/etag.ts';
import type { Variant } from '../views/facility-views.ts';
import { fill, html, HTML_SECURITY_HEADERS, page } from './html.ts';
import { DateFormats, pluralIn, say, speechIn } from './rental-texts.ts';
import {
  acceptedLanguage,
  LANGUAGES,
  pageLanguage,
  placeLanguage,
  refusedLanguages,
  type Language,
} from '../../../shared/languages.ts';
import { renderListing } from './rental-html.ts';

export const RENT_PREFIX = '/rent/';

/** The facility's own language: the page's when the visitor asks for none we speak. */
const facilityLanguage = (f: Facility) => placeLanguage(f.address?.country, f.currency);

/** The facility and code a `/rent/` or `/go/` path names, decoded; undefined for any other shape. */
export function listingOfPath(path: string, prefix: string): { facilityId: string; code: string } | undefined {
  const [facilityId, code, ...rest] = path.slice(prefix.length).split('/').map(safeDecode);
  return facilityId && code && rest.length === 0 ? { facilityId, code } : undefined;
}

/** How long a refused render's answer is held: a crawler's connection waits instead of asking again at once. */
export const BUSY_HOLD_MS = 1000;

/** A page's headers (the handler adds the request id, nosniff and the length). */
const PAGE_HEADERS = Object.freeze({
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-cache',
  vary: 'Accept-Language',
  ...HTML_SECURITY_HEADERS,
});

/** A kept listing's page depends on the coding too: a br page is not for a client that accepts gzip alone. */
const VARY_LISTING = 'Accept-Language, Accept-Encoding';

function pageAnswer(status: number, page: Buffer): Answer {
  return { status, headers: { ...PAGE_HEADERS }, body: page };
}

/**
 * A listing's page in the coding the request accepts, with its strong ETag; 304, with what RFC 9110 15.4.5 keeps, when
 * If-None-Match holds that ETag. `no-cache` has the browser ask each time, and a page not changed costs no body.
 */
function listingAnswer(req: RequestLike, page: Variant): Answer {
  const inm = header(req, 'if-none-match');
  if (inm !== undefined && etagMatches(inm, page.etag))
    return {
      status: 304,
      headers: { 'cache-control': PAGE_HEADERS['cache-control'], vary: VARY_LISTING, etag: page.etag },
      body: null,
    };
  const headers: Record<string, string> = { ...PAGE_HEADERS, vary: VARY_LISTING, etag: page.etag };
  if (page.coding !== null) headers['content-encoding'] = page.coding;
  return { status: 200, headers, body: page.bytes };
}

function safeDecode(s: string): string {
  if (!s.includes('%')) return s; // a code or an id as linked: nothing to decode
  try {
    return decodeURIComponent(s);
  } catch {
    return '';
  }
}

/** The same bytes for every unknown unit, one per language: rendered once, not per request (anyone can ask any code). */
const NOT_FOUND = Object.fromEntries(
  LANGUAGES.map((l) => {
    const { t } = speechIn(l);
    const body = html`<main class="rent"><h1>${t.notFound}</h1><p>${t.notFoundText}</p></main>`;
    return [l, Buffer.from(page(t.notFound, body, { lang: l, description: t.siteDescription }))];
  }),
) as Record<Language, Buffer>;

/** An unknown unit's page, in the language the visitor asks for (English when none we speak: no facility to go by). */
export function notFoundPage(acceptLanguage: string | undefined): Answer {
  return pageAnswer(404, NOT_FOUND[acceptedLanguage(acceptLanguage) ?? 'en']);
}

/** A refusal for a person (an HTML page) and for a program (Retry-After). */
function refusalPage(status: 429 | 503, retryAfter: number, body: Buffer): Answer {
  return {
    status,
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-store',
      'retry-after': String(retryAfter),
      ...HTML_SECURITY_HEADERS,
    },
    body,
  };
}

const refusalBody = (language: Language, title: string, text: string) =>
  Buffer.from(
    page(title, html`<main class="rent"><h1>${title}</h1><p>${text}</p></main>`, {
      lang: language,
      description: speechIn(language).t.siteDescription,
    }),
  );

/** The busy page in each language, rendered once. */
const BUSY = Object.fromEntries(
  LANGUAGES.map((l) => {
    const { t } = speechIn(l);
    return [l, refusalBody(l, t.busy, t.busyText)];
  }),
) as Record<Language, Buffer>;

/**
 * More pages to render than the server's budget allows this second, from all clients together; in the language the
 * visitor asks for (English when none we speak).
 */
export function busyPage(acceptLanguage: string | undefined): Answer {
  return refusalPage(503, 1, BUSY[acceptedLanguage(acceptLanguage) ?? 'en']);
}

/**
 * An unexpected failure as a renter reads it, in the language the visitor asks for (English when none we speak): none
 * of its detail, and the request id to quote, under which the log holds the failure.
 */
export function failedPage(requestId: string, acceptLanguage: string | undefined): Answer {
  const language = acceptedLanguage(acceptLanguage) ?? 'en';
  const { t } = speechIn(language);
  const text = fill(t.failedText, { id: html`<code>${requestId}</code>` });
  const body = html`<main class="rent"><h1>${t.failed}</h1><p>${text}</p></main>`;
  return {
    status: 500,
    headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store', ...HTML_SECURITY_HEADERS },
    body: Buffer.from(page(t.failed, body, { lang: language, description: t.siteDescription })),
  };
}

/** The rental pages a server answers, with what they are made from kept: the page cache, date formats and refusals. */
export class RentalPages {
  /**
   * Refusal pages by status, Retry-After and language, each rendered once: a client refused again and again costs no
   * rendering. A limit refuses with a few Retry-After values (up to its refill time): 64 holds them. (Tests read it.)
   */
  readonly refusals = memoBy<string, Buffer, { status: 429 | 503; retryAfter: number; language: Language }>(
    64,
    (_key, { status, retryAfter, language }) => {
      const { t } = speechIn(language);
      const [title, text] = status === 429 ? [t.tooMany, t.tooManyText] : [t.unavailable, t.unavailableText];
      return refusalBody(language, title, say(pluralIn(language, text, retryAfter), { n: retryAfter }));
    },
  );
  private readonly dates = new DateFormats();
  private readonly codings = new Codings();

  constructor(private readonly pages: PageCache) {}

  /**
   * The page of one listing, made from that listing alone (the very Detail the API answers) and kept by the page
   * cache. A page not kept needs a store read and a render, which `mayRender()` grants or refuses (the server's budget
   * for all clients together); refused, the client is told to come back in a second, and told a second later.
   */
  page(req: RequestLike, path: string, mayRender?: () => boolean): Answer {
    const acceptLanguage = header(req, 'accept-language');
    const listing = listingOfPath(path, RENT_PREFIX);
    // One kept page per language asked for, and one for "none we speak", which is in the facility's language (one per
    // set of our languages refused with q=0, which may rule the facility's out).
    const asked = acceptedLanguage(acceptLanguage);
    const refused = asked ? [] : refusedLanguages(acceptLanguage);
    const render = (d: Detail, f: Facility) =>
      renderListing(d, f, speechIn(pageLanguage(asked, refused, facilityLanguage(f))), this.dates);
    const kept = asked ?? (refused.length > 0 ? `not ${refused.join(' ')}` : '');
    const coding = this.codings.of(header(req, 'accept-encoding'));
    const page = listing && this.pages.pageOf(listing.facilityId, listing.code, render, mayRender, kept, coding);
    if (page === 'busy') return heldBack(busyPage(acceptLanguage), BUSY_HOLD_MS);
    return page ? listingAnswer(req, page) : notFoundPage(acceptLanguage);
  }

  /** Too many pages from one address, in the language the visitor asks for (English when none we speak). */
  tooMany(retryAfter: number, acceptLanguage: string | undefined): Answer {
    return this.refusal(429, retryAfter, acceptLanguage);
  }

  /** The database that confirms the page's data is unreachable: the renter is asked to come back shortly. */
  unavailable(retryAfter: number, acceptLanguage: string | undefined): Answer {
    return this.refusal(503, retryAfter, acceptLanguage);
  }

  private refusal(status: 429 | 503, retryAfter: number, acceptLanguage: string | undefined): Answer {
    const language = acceptedLanguage(acceptLanguage) ?? 'en';
    const body = this.refusals.memo(`${status} ${retryAfter} ${language}`, {
      context: { status, retryAfter, language },
    });
    return refusalPage(status, retryAfter, body);
  }
}
