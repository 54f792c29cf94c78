// One listing card (and its same-sized loading skeleton): pure templates over the public Summary shape.
import { html, nothing, type TemplateResult } from 'lit';
import { formatArea, formatMoney, formatPercent, formatPeriod } from '../../shared/format.ts';
import type { Summary } from '../../shared/listing.ts';
import type { Translate } from './i18n.ts';
import { lazySrc } from './lazy-src.ts';
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
  headingLevel: number;
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

/** The gross price as the locale writes it: "329,00 zł". */
const amountText = ({ price }: Summary, v: View) => formatMoney(price.gross, price.currency, v.locale);
/** What follows the price: "/ month". */
const periodText = ({ price }: Summary, v: View) => v.t('per', { period: formatPeriod(price.period, v.locale) });

/** The price for the dialog. A card writes the same two spans inline, to spare 200 nested template instances. */
export function priceText(listing: Summary, v: View): TemplateResult {
  return html`<span class="amount">${amountText(listing, v)}</span> <span class="period">${periodText(listing, v)}</span>`;
}

export function netText(listing: Summary, v: View): string {
  const { net, vat_rate, currency } = listing.price;
  return v.t('net', { net: formatMoney(net, currency, v.locale), vat: formatPercent(vat_rate, v.locale) });
}

/** The availability class and words: "3 units left", "Last unit", "Sold out". */
export function availability(listing: Summary, t: Translate): [string, string] {
  const n = listing.free_units;
  if (n <= 0) return ['sold-out', t('soldOut')];
  if (n === 1) return ['last', t('lastUnit')];
  return ['available', t('unitsLeft', { n }, n)];
}

/** The rent action; none for a sold-out listing or a rent URL that is not http(s). */
export function rentLink(listing: Summary, v: View): TemplateResult | typeof nothing {
  const href = listing.free_units > 0 ? safeUrl(listing.rent_url, v.base) : null;
  if (!href) return nothing;
  const hint = v.target === '_blank' ? ` ${v.t('newTab')}` : '';
  return html`<a
    part="rent-link"
    class="primary"
    href=${href}
    target=${v.target || nothing}
    rel=${v.rel || nothing}
    data-action="rent"
    >${v.t('rent')}<span class="sr-only"> ${listing.title}${hint}</span></a
  >`;
}

export function card(listing: Summary, v: View): TemplateResult {
  const cover = listing.cover_photo;
  const photo = cover ? safeUrl(cover.url, v.base) : null;
  const [state, free] = availability(listing, v.t);
  // No whitespace between tags: every text node here would be cloned, inserted and walked 200 times for nothing.
  // prettier-ignore
  return html`<li part="listing" class="card ${state}" data-listing-id=${listing.id}><div class="media">${
      photo ? html`<img part="photo" src=${lazySrc(photo)} alt=${cover?.caption ?? ''} loading="lazy" decoding="async" />` : html`<span part="no-photo" class="no-photo" role="img" aria-label=${v.t('noPhoto')}>${v.t('noPhoto')}</span>`
    }</div><div class="body"><div class="head"><span class="title" role="heading" aria-level=${v.headingLevel}>${listing.title}</span><span class="code">${listing.code}</span></div><span class="area">${
      formatArea(listing.area_m2, v.locale)
    }</span><p part="price" class="price"><span class="amount">${amountText(listing, v)}</span> <span class="period">${periodText(listing, v)}</span></p>${v.showNet ? html`<p class="net">${netText(listing, v)}</p>` : nothing}<p part="free-units" class="free-units">${free}</p><div class="actions"><button type="button" class="secondary" aria-haspopup="dialog" data-action="details">${
      v.t('details')
    }<span class="sr-only"> ${listing.title}</span></button>${rentLink(listing, v)}</div></div></li>`;
}

/** A placeholder with the card's exact structure, so the real cards replace it without a layout jump. */
export function skeletonCard(showNet: boolean): TemplateResult {
  const line = (size: string) => html`<span class="bar ${size}">&nbsp;</span>`;
  return html`<li class="card skeleton">
    <div class="media"></div>
    <div class="body">
      <div class="head"><span class="title">${line('wide')}</span></div>
      <span class="area">${line('narrow')}</span>
      <p class="price">${line('half')}</p>
      ${showNet ? html`<p class="net">${line('half')}</p>` : nothing}
      <p class="free-units">${line('narrow')}</p>
      <div class="actions"><span class="bar button"></span></div>
    </div>
  </li>`;
}
