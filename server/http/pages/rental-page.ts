// The operator's public rental page, /rent/{facility}/{code}: the same Detail (and price) the API answers, as HTML,
// with what the widget shows beyond price (rental-page-parts.ts) and the widget's JSON-LD for search engines.
import type { Facility } from '../../domain/facility.ts';
import { bookingUrlOf, facilityInfoOf } from '../../domain/views.ts';
import { formatArea, formatDimensions, formatDuration, formatMoney } from '../../../shared/format.ts';
import { selfStorageOf } from '../../../shared/structured-data.ts';
import type { Detail } from '../../../shared/listing.ts';
import type { PageCache } from '../views/page-cache.ts';
import { heldBack, type Answer } from '../transport/answer.ts';
import { html, HTML_SECURITY_HEADERS, jsonForScript, page, type Html } from './html.ts';
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

/**
 * The page of one listing, made from that listing alone (the very Detail the API answers) and kept by the page cache.
 * A page not kept needs a store read and a render, which `mayRender()` grants or refuses (the server's budget for all
 * clients together); refused, the client is told to come back in a second, and told a second later.
 */
export function rentalPage(pages: PageCache, path: string, mayRender?: () => boolean): Answer {
  const listing = listingOfPath(path, RENT_PREFIX);
  const page = listing && pages.pageOf(listing.facilityId, listing.code, renderListing, mayRender);
  if (page === 'busy') return heldBack(busyPage(), BUSY_HOLD_MS);
  return page ? pageAnswer(200, page) : notFoundPage();
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

/** The same bytes for every unknown unit: rendered once, not per request (anyone can ask for any code). */
const NOT_FOUND = Buffer.from(
  page(
    'Unit not found',
    html`<main class="rent"><h1>Unit not found</h1><p>This unit is not available to rent. It may have been rented out or removed.</p></main>`,
  ),
);

export function notFoundPage(): Answer {
  return pageAnswer(404, NOT_FOUND);
}

/** Refusal pages by status and Retry-After: a client refused again and again costs no rendering. */
const refusalBodies = new Map<string, Buffer>();

/** A refusal for a person (an HTML page) and for a program (Retry-After), made once per status and wait. */
function refusalPage(status: 429 | 503, retryAfter: number, title: string, text: string): Answer {
  const key = `${status} ${retryAfter}`;
  let body = refusalBodies.get(key);
  if (!body) {
    if (refusalBodies.size >= 64) refusalBodies.clear();
    body = Buffer.from(page(title, html`<main class="rent"><h1>${title}</h1><p>${text}</p></main>`));
    refusalBodies.set(key, body);
  }
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

/** Too many pages from one address. */
export function tooManyPages(retryAfter: number): Answer {
  return refusalPage(
    429,
    retryAfter,
    'Too many requests',
    `Too many pages were requested from your address. Please try again in ${retryAfter} seconds.`,
  );
}

/** More pages to render than the server's budget allows this second, from all clients together. */
export function busyPage(): Answer {
  return refusalPage(503, 1, 'Busy', 'Many pages are being requested right now. Please try again in a moment.');
}

/** The database that confirms the page's data is unreachable: the renter is asked to come back shortly. */
export function unavailablePage(retryAfter: number): Answer {
  return refusalPage(
    503,
    retryAfter,
    'Temporarily unavailable',
    `Prices and free units cannot be confirmed right now. Please try again in ${retryAfter} seconds.`,
  );
}

function renderListing(d: Detail, facility: Facility): string {
  const facilityName = facility.name;
  const { price } = d;
  const soldOut = d.free_units === 0;
  // The very JSON-LD the widget's structured-data attribute writes for this one listing, with the unit's words and photos.
  const ld = selfStorageOf(facilityInfoOf(facility), [d]);
  ld.makesOffer[0] = { ...ld.makesOffer[0]!, description: d.description, image: d.photos.map((p) => p.url) };
  const body = html`<main class="rent">
<p class="facility">${facilityName}</p>
<h1>${d.title}</h1>
<p class="code">Unit <span data-field="code">${d.code}</span></p>
<section class="offer">
  ${priceLine(d)}
  <p class="net">Net <span data-field="net" data-minor="${price.net}">${formatMoney(price.net, price.currency)}</span> + VAT <span data-field="vat_rate">${price.vat_rate}</span>%${d.dynamic_pricing ? html` <span class="dynamic">(current demand-based price)</span>` : ''}</p>
  <p class="availability" data-field="free_units" data-count="${d.free_units}">${soldOut ? 'Sold out' : d.free_units === 1 ? '1 unit free' : `${d.free_units} units free`}</p>
  ${soldOut ? html`<p class="cta disabled">Currently sold out</p>` : rentAction(facility, d)}
</section>
${featuresPart(d)}
<dl class="facts">
  <dt>Area</dt><dd data-field="area_m2">${formatArea(d.area_m2)}</dd>
  <dt>Dimensions</dt><dd data-field="dimensions">${formatDimensions(d.dimensions)}</dd>
  <dt>Deposit</dt><dd data-field="deposit" data-minor="${d.deposit.amount}">${formatMoney(d.deposit.amount, d.deposit.currency)}</dd>
  <dt>Minimum rental</dt><dd data-field="min_rental_period">${formatDuration(d.min_rental_period)}</dd>
  <dt>Notice period</dt><dd data-field="notice_period">${formatDuration(d.notice_period)}</dd>
  ${termFacts(d)}
</dl>
${promotionsPart(d)}
${schedulePart(d)}
${moveInPart(d)}
${protectionPart(d)}
<p class="description">${d.description}</p>
<section class="photos">
${
  d.photos.length === 0
    ? html`<figure class="no-photo"><div class="placeholder" role="img" aria-label="No photo of this unit yet"><svg viewBox="0 0 48 36" aria-hidden="true"><rect x="4" y="8" width="40" height="26" rx="3"/><path d="M4 30l12-11 9 8 6-5 13 8"/><circle cx="33" cy="16" r="3"/></svg></div><figcaption>No photo of this unit yet</figcaption></figure>`
    : d.photos.map(
        (p) =>
          html`<figure><img src="${safeUrl(p.url)}" alt="${p.caption}" loading="lazy"${p.width ? html` width="${p.width}"` : ''}${p.height ? html` height="${p.height}"` : ''}><figcaption>${p.caption}</figcaption></figure>`,
      )
}
</section>
${facilityPart(facility)}
<section class="book"><h2>How to rent</h2><p>${nextSteps(facility)}</p></section>
</main>`;
  return page(`${d.title} · ${facilityName}`, body, {
    description: `${d.title} at ${facilityName}: the live price, free units, photos and how to rent.`,
    head: html`<script type="application/ld+json">${jsonForScript(ld)}</script>`,
  });
}

/**
 * The Rent action leads somewhere real: the operator's booking page, or an email to the operator, or (with neither in
 * the import) no button at all, and a sentence that says so.
 */
function rentAction(facility: Facility, d: Detail): Html {
  const booking = bookingUrlOf(facility, d.code);
  if (booking) return html`<p class="cta"><a class="button" href="${safeUrl(booking)}">Rent this unit</a></p>`;
  if (facility.contact_email) {
    const subject = encodeURIComponent(`Renting ${d.code}: ${d.title}`);
    return html`<p class="cta"><a class="button" href="mailto:${facility.contact_email}?subject=${subject}">Rent this unit: email ${facility.name}</a></p>`;
  }
  if (facility.contact_phone)
    return html`<p class="cta"><a class="button" href="tel:${facility.contact_phone.replace(/[^+0-9]/g, '')}">Rent this unit: call ${facility.contact_phone}</a></p>`;
  return html`<p class="cta note">To rent this unit, contact ${facility.name}.</p>`;
}

function nextSteps(facility: Facility): Html {
  const ways: Html[] = [];
  if (facility.contact_email)
    ways.push(html`email <a href="mailto:${facility.contact_email}">${facility.contact_email}</a>`);
  if (facility.contact_phone)
    ways.push(html`call <a href="tel:${facility.contact_phone.replace(/[^+0-9]/g, '')}">${facility.contact_phone}</a>`);
  const reach = ways.flatMap((w, i) => (i === 0 ? [w] : [html` or `, w]));
  if (facility.booking_url) {
    return html`Rent this unit continues on ${facility.name}'s booking page, where you choose a start date, sign and pay.${reach.length ? html` Questions first? ${reach}.` : ''}`;
  }
  if (reach.length)
    return html`${facility.name} rents this unit directly: ${reach}, and they confirm the start date, the contract and the payment with you.`;
  return html`This page shows live prices and free units. Online booking is not offered here: contact ${facility.name} to rent.`;
}

function safeUrl(url: string): string {
  return /^https?:\/\//i.test(url) ? url : '';
}
