// What a card shows beyond the regular price: the winning promotion with the regular price struck through, the unit
// type, and up to four features as icon and label.
import { html, nothing, type TemplateResult } from 'lit';
import { formatMoney } from '../../shared/format.ts';
import type { Price } from '../../shared/listing.ts';
import type { Translate } from './i18n.ts';
import { featureIcon } from './icons.ts';
import { arrayOf, winningPromotion, type Listing, type Terms } from './listing.ts';

/** A card has room for this many features; the details dialog's rent page has the rest. */
const CARD_FEATURES = 4;

const money = (price: Price, locale: string) => formatMoney(price.gross, price.currency, locale);

/**
 * The price line. With a promotion: its title, the promoted price and the regular one in an `<s>`, read out by screen
 * readers as one sentence ("164,50 zł instead of 329,00 zł / month"), since most do not announce a strikethrough.
 */
export function priceLine(listing: Listing, terms: Terms, t: Translate, locale: string, period: string) {
  const promotion = winningPromotion(terms);
  const regular = money(listing.price, locale);
  if (!promotion) {
    // prettier-ignore
    return html`<p part="price" class="price"><span class="amount">${regular}</span> <span class="period">${period}</span></p>`;
  }
  const promoted = money(promotion.price, locale);
  // prettier-ignore
  return html`<div part="promotion" class="promotion"><p class="promotion-title">${promotion.title}</p><p part="price" class="price"><span aria-hidden="true"><span class="amount">${promoted}</span> <span class="period">${period}</span> <s part="regular-price">${regular}</s></span><span class="sr-only">${t('instead', { price: promoted, regular })} ${period}</span></p></div>`;
}

/** The unit type's words ("Medium unit"), or nothing. */
export function unitTypeText(listing: Listing, t: Translate): TemplateResult | typeof nothing {
  const type = listing.unit_type;
  return type ? html` · <span part="unit-type">${t.word('unitTypeNames', type)}</span>` : nothing;
}

/** Up to four features, each an icon and its label. */
export function featureList(listing: Listing, t: Translate): TemplateResult | typeof nothing {
  const features = arrayOf(listing.features).slice(0, CARD_FEATURES);
  if (!features.length) return nothing;
  // prettier-ignore
  return html`<ul part="features" class="features">${features.map((f) => html`<li>${featureIcon(f)}${t.word('featureNames', f)}</li>`)}</ul>`;
}
