// The operator's public rental page, /rent/{facility}/{code}: the same Detail (and price) the API answers, as HTML.
import { detailOf } from '../domain/views.ts';
import { durationInWords, formatMoney, majorUnits, periodInWords } from '../domain/money.ts';
import type { Detail } from '../schemas/listing.ts';
import type { Db } from '../store/db.ts';
import { facilityData } from '../store/facilities.ts';
import type { Answer } from './answer.ts';
import { html, HTML_SECURITY_HEADERS, jsonForScript, page } from './html.ts';

export const RENT_PREFIX = '/rent/';

export function rentalPage(db: Db, publicUrl: string, path: string): Answer {
  const [facilityId, code, ...rest] = path.slice(RENT_PREFIX.length).split('/').map(safeDecode);
  const data = facilityId && code && rest.length === 0 ? facilityData(db, facilityId) : undefined;
  const listing = data?.listings.find((l) => l.code === code);
  if (!data || !listing) return notFoundPage();
  const detail = detailOf(listing, data, publicUrl);
  return {
    status: 200,
    headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-cache', ...HTML_SECURITY_HEADERS },
    body: renderListing(detail, data.facility.name, `${publicUrl}${RENT_PREFIX}${encodeURIComponent(data.facility.id)}/${encodeURIComponent(listing.code)}`),
  };
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return '';
  }
}

export function notFoundPage(): Answer {
  return {
    status: 404,
    headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-cache', ...HTML_SECURITY_HEADERS },
    body: page('Unit not found', html`<main class="rent"><h1>Unit not found</h1><p>This unit is not available to rent. It may have been rented out or removed.</p></main>`),
  };
}

function renderListing(d: Detail, facilityName: string, pageUrl: string): string {
  const { price } = d;
  const soldOut = d.free_units === 0;
  const ld = {
    '@context': 'https://schema.org',
    '@type': 'Product',
    name: d.title,
    sku: d.code,
    description: d.description,
    image: d.photos.map((p) => p.url),
    offers: {
      '@type': 'Offer',
      price: majorUnits(price.gross, price.currency),
      priceCurrency: price.currency,
      availability: soldOut ? 'https://schema.org/OutOfStock' : 'https://schema.org/InStock',
      url: pageUrl,
    },
  };
  const dims = d.dimensions;
  const body = html`<main class="rent">
<p class="facility">${facilityName}</p>
<h1>${d.title}</h1>
<p class="code">Unit type <span data-field="code">${d.code}</span></p>
<section class="offer">
  <p class="price"><span class="gross" data-field="gross" data-minor="${price.gross}">${formatMoney(price.gross, price.currency)}</span> <span class="period">per ${periodInWords(price.period)}</span></p>
  <p class="net">Net <span data-field="net" data-minor="${price.net}">${formatMoney(price.net, price.currency)}</span> + VAT <span data-field="vat_rate">${price.vat_rate}</span>%${d.dynamic_pricing ? html` <span class="dynamic">(current demand-based price)</span>` : ''}</p>
  <p class="availability" data-field="free_units" data-count="${d.free_units}">${soldOut ? 'Sold out' : d.free_units === 1 ? '1 unit free' : `${d.free_units} units free`}</p>
  ${soldOut ? html`<p class="cta disabled">Currently sold out</p>` : html`<p class="cta"><a class="button" href="#book">Rent this unit</a></p>`}
</section>
<dl class="facts">
  <dt>Area</dt><dd data-field="area_m2">${d.area_m2} m²</dd>
  <dt>Dimensions</dt><dd data-field="dimensions">${dims.width_m} × ${dims.depth_m}${dims.height_m === null ? '' : ` × ${dims.height_m}`} m</dd>
  <dt>Deposit</dt><dd data-field="deposit" data-minor="${d.deposit.amount}">${formatMoney(d.deposit.amount, d.deposit.currency)}</dd>
  <dt>Minimum rental</dt><dd data-field="min_rental_period">${durationInWords(d.min_rental_period)}</dd>
  <dt>Notice period</dt><dd data-field="notice_period">${durationInWords(d.notice_period)}</dd>
</dl>
<p class="description">${d.description}</p>
<section class="photos">
${d.photos.map((p) => html`<figure><img src="${safeUrl(p.url)}" alt="${p.caption}" loading="lazy"${p.width ? html` width="${p.width}"` : ''}${p.height ? html` height="${p.height}"` : ''}><figcaption>${p.caption}</figcaption></figure>`)}
</section>
<section id="book" class="book"><h2>Book</h2><p>Booking, payment and contract signing happen here, on the operator's own page.</p></section>
</main>`;
  return page(`${d.title} · ${facilityName}`, body, { head: html`<script type="application/ld+json">${jsonForScript(ld)}</script>` });
}

function safeUrl(url: string): string {
  return /^https?:\/\//i.test(url) ? url : '';
}
