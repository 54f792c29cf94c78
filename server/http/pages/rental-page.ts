// The operator's public rental page, /rent/{facility}/{code}: the same Detail (and price) the API answers, as HTML,
// with what the widget shows beyond price (rental-page-parts.ts) and the widget's JSON-LD for search engines.
import { LRUCache } from 'lru-cache';
import type { Facility } from '../../domain/facility.ts';
import { bookingUrlOf, facilityInfoOf } from '../../domain/views.ts';
import { formatArea, formatDimensions, formatDuration, formatMoney } from '../../../shared/format.ts';
import { selfStorageOf } from '../../../shared/structured-data.ts';
import type { Detail } from '../../../shared/listing.ts';
import type { PageCache } from '../views/page-cache.ts';
import { heldBack, type Answer } from '../transport/answer.ts';
import { fill, Html, html, HTML_SECURITY_HEADERS, jsonForScript, page } from './html.ts';
import { pluralIn, say, speechIn, type Speech } from './rental-texts.ts';
import { acceptedLanguage, LANGUAGES, placeLanguage, type Language } from '../../../shared/languages.ts';
import {
  facilityPart,
  featuresPart,
  moveInPart,
  priceLine,
  promotionsPart,
  protectionPart,
  schedulePart,
  termFacts,
} from './rental-page-parts.ts';

export const RENT_PREFIX = '/rent/';

/** The facility's own language: the page's when the visitor asks for none we speak. */
const facilityLanguage = (f: Facility) => placeLanguage(f.address?.country, f.currency);

/**
 * The page of one listing, made from that listing alone (the very Detail the API answers) and kept by the page cache.
 * A page not kept needs a store read and a render, which `mayRender()` grants or refuses (the server's budget for all
 * clients together); refused, the client is told to come back in a second, and told a second later.
 */
export function rentalPage(
  pages: PageCache,
  path: string,
  acceptLanguage: string | undefined,
  mayRender?: () => boolean,
): Answer {
  const listing = listingOfPath(path, RENT_PREFIX);
  // One kept page per language asked for, and one for "none we speak", which is in the facility's language.
  const asked = acceptedLanguage(acceptLanguage);
  const render = (d: Detail, f: Facility) => renderListing(d, f, speechIn(asked ?? facilityLanguage(f)));
  const page = listing && pages.pageOf(listing.facilityId, listing.code, render, mayRender, asked ?? '');
  if (page === 'busy') return heldBack(busyPage(), BUSY_HOLD_MS);
  return page ? pageAnswer(200, page) : notFoundPage(acceptLanguage);
}

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

function pageAnswer(status: number, page: Buffer): Answer {
  return { status, headers: { ...PAGE_HEADERS }, body: page };
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
    return [l, Buffer.from(page(t.notFound, body, { lang: l }))];
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

const refusalBody = (title: string, text: string) =>
  Buffer.from(page(title, html`<main class="rent"><h1>${title}</h1><p>${text}</p></main>`));

const BUSY = refusalBody('Busy', 'Many pages are being requested right now. Please try again in a moment.');

/** More pages to render than the server's budget allows this second, from all clients together. */
export function busyPage(): Answer {
  return refusalPage(503, 1, BUSY);
}

/** Refusal pages by status and Retry-After, each rendered once: a client refused again and again costs no rendering. */
export class RefusalPages {
  /** A limit refuses with a few Retry-After values (up to its refill time): 64 holds them. (Tests read it.) */
  readonly bodies = new LRUCache<string, Buffer>({ max: 64 });

  /** Too many pages from one address. */
  tooMany(retryAfter: number): Answer {
    return this.refusal(
      429,
      retryAfter,
      'Too many requests',
      `Too many pages were requested from your address. Please try again in ${retryAfter} seconds.`,
    );
  }

  /** The database that confirms the page's data is unreachable: the renter is asked to come back shortly. */
  unavailable(retryAfter: number): Answer {
    return this.refusal(
      503,
      retryAfter,
      'Temporarily unavailable',
      `Prices and free units cannot be confirmed right now. Please try again in ${retryAfter} seconds.`,
    );
  }

  private refusal(status: 429 | 503, retryAfter: number, title: string, text: string): Answer {
    const key = `${status} ${retryAfter}`;
    let body = this.bodies.get(key);
    if (body === undefined) this.bodies.set(key, (body = refusalBody(title, text)));
    return refusalPage(status, retryAfter, body);
  }
}

function renderListing(d: Detail, facility: Facility, s: Speech): string {
  const { t, language } = s;
  const facilityName = facility.name;
  const { price } = d;
  const soldOut = d.free_units === 0;
  const money = (minor: number, currency: string) => formatMoney(minor, currency, language);
  // The very JSON-LD the widget's structured-data attribute writes for this one listing, with the unit's words and photos.
  const ld = selfStorageOf(facilityInfoOf(facility), [d]);
  ld.makesOffer[0] = { ...ld.makesOffer[0]!, description: d.description, image: d.photos.map((p) => p.url) };
  const net = html`<span data-field="net" data-minor="${price.net}">${money(price.net, price.currency)}</span>`;
  const rate = html`<span data-field="vat_rate">${price.vat_rate}</span>`;
  const free = soldOut ? t.soldOut : fill(pluralIn(language, t.free, d.free_units), { n: d.free_units });
  const body = html`<main class="rent">
<p class="facility">${facilityName}</p>
<h1>${d.title}</h1>
<p class="code">${fill(t.unit, { code: html`<span data-field="code">${d.code}</span>` })}</p>
<section class="offer">
  ${priceLine(d, s)}
  <p class="net">${fill(t.net, { net, rate })}${d.dynamic_pricing ? html` <span class="dynamic">${t.dynamic}</span>` : ''}</p>
  <p class="availability" data-field="free_units" data-count="${d.free_units}">${free}</p>
  ${soldOut ? html`<p class="cta disabled">${t.soldOutNow}</p>` : rentAction(facility, d, s)}
</section>
${featuresPart(d, s)}
<dl class="facts">
  <dt>${t.area}</dt><dd data-field="area_m2">${formatArea(d.area_m2, language)}</dd>
  <dt>${t.dimensions}</dt><dd data-field="dimensions">${formatDimensions(d.dimensions, language)}</dd>
  <dt>${t.deposit}</dt><dd data-field="deposit" data-minor="${d.deposit.amount}">${money(d.deposit.amount, d.deposit.currency)}</dd>
  <dt>${t.minRental}</dt><dd data-field="min_rental_period">${formatDuration(d.min_rental_period, language)}</dd>
  <dt>${t.notice}</dt><dd data-field="notice_period">${formatDuration(d.notice_period, language)}</dd>
  ${termFacts(d, s)}
</dl>
${promotionsPart(d, facility, s)}
${schedulePart(d, s)}
${moveInPart(d, s)}
${protectionPart(d, s)}
<p class="description">${d.description}</p>
<section class="photos">
${
  d.photos.length === 0
    ? html`<figure class="no-photo"><div class="placeholder" role="img" aria-label="${t.noPhoto}"><svg viewBox="0 0 48 36" aria-hidden="true"><rect x="4" y="8" width="40" height="26" rx="3"/><path d="M4 30l12-11 9 8 6-5 13 8"/><circle cx="33" cy="16" r="3"/></svg></div><figcaption>${t.noPhoto}</figcaption></figure>`
    : d.photos.map(
        (p) =>
          html`<figure><img src="${safeUrl(p.url)}" alt="${p.caption}" loading="lazy"${p.width ? html` width="${p.width}"` : ''}${p.height ? html` height="${p.height}"` : ''}><figcaption>${p.caption}</figcaption></figure>`,
      )
}
</section>
${facilityPart(facility, s)}
<section class="book"><h2>${t.howToRent}</h2><p>${nextSteps(facility, s)}</p></section>
</main>`;
  return page(`${d.title} · ${facilityName}`, body, {
    lang: language,
    description: say(t.description, { title: d.title, facility: facilityName }),
    head: html`<script type="application/ld+json">${jsonForScript(ld)}</script>`,
  });
}

/**
 * The Rent action leads somewhere real: the operator's booking page, or an email to the operator, or (with neither in
 * the import) no button at all, and a sentence that says so.
 */
function rentAction(facility: Facility, d: Detail, { t }: Speech): Html {
  const booking = bookingUrlOf(facility, d.code);
  if (booking) return html`<p class="cta"><a class="button" href="${safeUrl(booking)}">${t.rent}</a></p>`;
  if (facility.contact_email) {
    const subject = encodeURIComponent(say(t.mailSubject, { code: d.code, title: d.title }));
    return html`<p class="cta"><a class="button" href="mailto:${facility.contact_email}?subject=${subject}">${fill(t.rentByEmail, { name: facility.name })}</a></p>`;
  }
  if (facility.contact_phone)
    return html`<p class="cta"><a class="button" href="tel:${telOf(facility.contact_phone)}">${fill(t.rentByPhone, { phone: facility.contact_phone })}</a></p>`;
  return html`<p class="cta note">${fill(t.rentContact, { name: facility.name })}</p>`;
}

const telOf = (phone: string) => phone.replace(/[^+0-9]/g, '');

function nextSteps(facility: Facility, { t }: Speech): Html {
  const ways: Html[] = [];
  if (facility.contact_email)
    ways.push(
      fill(t.email, { address: html`<a href="mailto:${facility.contact_email}">${facility.contact_email}</a>` }),
    );
  if (facility.contact_phone)
    ways.push(
      fill(t.call, { phone: html`<a href="tel:${telOf(facility.contact_phone)}">${facility.contact_phone}</a>` }),
    );
  const reach = html`${ways.flatMap((w, i) => (i === 0 ? [w] : [t.or, w]))}`;
  const name = facility.name;
  if (facility.booking_url)
    return html`${fill(t.stepsBooking, { name })}${ways.length ? fill(t.stepsQuestions, { reach: capitalized(reach) }) : ''}`;
  if (ways.length) return fill(t.stepsDirect, { name, reach });
  return fill(t.stepsNone, { name });
}

/** A sentence's first word: a bare letter gets its capital ("Email ..."), markup is left as it is. */
const capitalized = (h: Html) => new Html(h.text.charAt(0).toUpperCase() + h.text.slice(1));

function safeUrl(url: string): string {
  return /^https?:\/\//i.test(url) ? url : '';
}
