// One listing card (and its same-sized loading skeleton): pure templates over the public Summary shape.
import { html, nothing, type TemplateResult } from 'lit';
import { formatArea, formatMoney, formatPercent, formatPeriod } from '../../shared/format.ts';
import type { Price, Summary } from '../../shared/listing.ts';
import { featureList, priceLine, unitTypeText } from './card-terms.ts';
import type { Translate } from './i18n.ts';
import { lazySrc } from './lazy-src.ts';
import { winningPromotion, type Listing, type Terms } from './listing.ts';
import { safeUrl } from './safe-url.ts';

/**
 * What the templates need from the element: settings and the translator. Clicks are not bound per card: the buttons
 * and links carry `data-action` ("details", "rent") and the element handles them with one listener (see actionOf).
 */
export interface View {
  t: Translate;
  locale: string;
  /** Resolves relative photo and rent URLs (the data source's URL). */
  base: string;
  showNet: boolean;
  target: string;
  rel: string;
  /** What a link's screen-reader text ends with: " (opens in a new tab)" for `target="_blank"`, else nothing. */
  newTab: string;
  headingLevel: number;
  /**
   * A rent link through the operator's click URL (absolute), crediting the partner; absent, or null for a base that
   * makes no http(s) URL: the listing's own rent_url.
   */
  go?: (code: string) => string | null;
  /** A listing's promotions, schedule and move-in: the API's as given, or a snapshot's priced now. */
  terms: (listing: Listing) => Terms;
}

export type Action = 'details' | 'rent';

/** The action a click asks for, and the element that carries it (a card's button or link, the dialog's rent link). */
export function actionOf(event: Event): { action: Action; element: HTMLElement } | null {
  const element = (event.target as Element | null)?.closest?.<HTMLElement>('[data-action]');
  const action = element?.dataset['action'];
  return element && (action === 'details' || action === 'rent') ? { action, element } : null;
}

/** The id of the card an element is in. */
export function cardIdOf(element: Element): string | null {
  return element.closest('[data-listing-id]')?.getAttribute('data-listing-id') ?? null;
}

/** What follows a price: "/ month". */
export const periodText = (price: Price, v: View) => v.t('per', { period: formatPeriod(price.period, v.locale) });

/** A price for the dialog; a card writes its own beside any promotion (priceLine, card-terms.ts). */
export function priceText(price: Price, v: View): TemplateResult {
  return html`<span class="amount">${formatMoney(price.gross, price.currency, v.locale)}</span> <span class="period">${periodText(price, v)}</span>`;
}

/** The net and VAT of a price: "267,48 zł net + 23% VAT". */
export function netText({ net, vat_rate, currency }: Price, v: View): string {
  return v.t('net', { net: formatMoney(net, currency, v.locale), vat: formatPercent(vat_rate, v.locale) });
}

/** The price a card shows big: the winning promotion's, else the regular one. */
const shownPrice = (listing: Listing, v: View): Price => winningPromotion(v.terms(listing))?.price ?? listing.price;

/** The availability class and words: "3 units left", "Last unit", "Sold out". */
export function availability(listing: Summary, t: Translate): [string, string] {
  const n = listing.free_units;
  if (n <= 0) return ['sold-out', t('soldOut')];
  if (n === 1) return ['last', t('lastUnit')];
  return ['available', t('unitsLeft', { n }, n)];
}

/** The rent action; none for a sold-out listing or a rent URL that is not http(s). */
export function rentLink(listing: Summary, v: View): TemplateResult | typeof nothing {
  const href = listing.free_units > 0 ? safeUrl(v.go?.(listing.code) ?? listing.rent_url, v.base) : null;
  if (!href) return nothing;
  const rel = v.go ? `${v.rel} sponsored`.trim() : v.rel;
  return html`<a
    part="rent-link"
    class="primary"
    href=${href}
    target=${v.target || nothing}
    rel=${rel || nothing}
    data-action="rent"
    >${v.t('rent')}<span class="sr-only"> ${listing.title}${v.newTab}</span></a
  >`;
}

export function card(listing: Listing, v: View): TemplateResult {
  const cover = listing.cover_photo;
  const photo = cover ? safeUrl(cover.url, v.base) : null;
  const [state, free] = availability(listing, v.t);
  // No whitespace between tags: every text node here would be cloned, inserted and walked 200 times for nothing.
  // prettier-ignore
  return html`<li part="listing" class="card ${state}" data-listing-id=${listing.id}><div class="media">${
      photo ? html`<img part="photo" src=${lazySrc(photo)} alt=${cover?.caption ?? ''} loading="lazy" decoding="async" />` : html`<span part="no-photo" class="no-photo" role="img" aria-label=${v.t('noPhoto')}>${v.t('noPhoto')}</span>`
    }</div><div class="body"><div class="head"><span class="title" role="heading" aria-level=${v.headingLevel}>${listing.title}</span><span class="code">${listing.code}</span></div><span class="area">${
      formatArea(listing.area_m2, v.locale)
    }${unitTypeText(listing, v.t)}</span>${priceLine(listing, v.terms(listing), v.t, v.locale, periodText(listing.price, v))}${v.showNet ? html`<p class="net">${netText(shownPrice(listing, v), v)}</p>` : nothing}${featureList(listing, v.t)}<p part="free-units" class="free-units">${free}</p><div class="actions"><button type="button" class="secondary" aria-haspopup="dialog" data-action="details">${
      v.t('details')
    }<span class="sr-only"> ${listing.title}</span></button>${rentLink(listing, v)}</div></div></li>`;
}

/** A placeholder with the card's exact structure, so the real cards replace it without a layout jump. */
export function skeletonCard(showNet: boolean): TemplateResult {
  const line = (size: string) => html`<span class="bar ${size}">&nbsp;</span>`;
  // No whitespace between tags, as in a card: up to 60 skeletons are cloned.
  // prettier-ignore
  return html`<li class="card skeleton"><div class="media"></div><div class="body"><div class="head"><span class="title">${line('wide')}</span></div><span class="area">${line('narrow')}</span><p class="price">${line('half')}</p>${showNet ? html`<p class="net">${line('half')}</p>` : nothing}<p class="free-units">${line('narrow')}</p><div class="actions"><span class="bar button"></span></div></div></li>`;
}
