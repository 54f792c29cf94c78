// The details view shown in the dialog: facts, description, rent link and a keyboard-usable photo gallery.
import { html, nothing, type TemplateResult } from 'lit';
import { formatArea, formatDimensions, formatDuration, formatMoney } from '../../shared/format.ts';
import type { Photo, Summary } from '../../shared/listing.ts';
import { netText, priceText, rentLink, availability, type View } from './cards.ts';
import { fact, moveInSection, scheduleSection, termFacts } from './details-terms.ts';
import type { ListingDetail } from './listing.ts';
import { safeUrl } from './safe-url.ts';

export interface DetailsView extends View {
  /** Index of the photo on show. */
  photo: number;
  onPhoto: (index: number) => void;
  onClose: () => void;
}

function gallery(photos: Photo[], v: DetailsView): TemplateResult | typeof nothing {
  const shown = photos.flatMap((p) => {
    const url = safeUrl(p.url, v.base);
    return url ? [{ ...p, url }] : [];
  });
  const count = shown.length;
  if (!count) return nothing;
  const index = Math.min(Math.max(v.photo, 0), count - 1);
  const photo = shown[index] as Photo;
  const go = (to: number) => v.onPhoto((to + count) % count); // wraps, so the buttons never need disabling
  const onKey = (event: KeyboardEvent) => {
    const moves: Record<string, number> = { ArrowLeft: index - 1, ArrowRight: index + 1, Home: 0, End: count - 1 };
    const to = moves[event.key];
    if (to === undefined || count < 2) return;
    event.preventDefault();
    go(to);
  };
  return html`<section class="gallery" aria-label=${v.t('photos')} aria-roledescription="carousel" @keydown=${onKey}>
    <figure>
      <img src=${photo.url} alt=${photo.caption} width=${photo.width ?? nothing} height=${photo.height ?? nothing} />
      <figcaption>${photo.caption}</figcaption>
    </figure>
    ${
      count > 1
        ? html`<div class="gallery-nav">
          <button type="button" class="secondary" aria-label=${v.t('previous')} @click=${() => go(index - 1)}>←</button>
          <span class="muted" aria-live="polite">${v.t('photoOf', { i: index + 1, n: count })}</span>
          <button type="button" class="secondary" aria-label=${v.t('next')} @click=${() => go(index + 1)}>→</button>
        </div>`
        : nothing
    }
  </section>`;
}

/** What the richer fields make, or nothing where one is not shaped as the contract says: the rest still shows. */
function safely(make: () => unknown): unknown {
  try {
    return make();
  } catch {
    return nothing;
  }
}

function facts(d: ListingDetail, v: DetailsView): TemplateResult {
  const [, free] = availability(d, v.t);
  return html`<dl class="facts">
    ${fact(v.t('price'), html`${priceText(d.price, v)}${v.showNet ? html`<br /><span class="net">${netText(d.price, v)}</span>` : nothing}`)}
    ${fact(v.t('area'), formatArea(d.area_m2, v.locale))}
    ${fact(v.t('dimensions'), formatDimensions(d.dimensions, v.locale))}
    ${fact(v.t('minRental'), formatDuration(d.min_rental_period, v.locale))}
    ${fact(v.t('notice'), formatDuration(d.notice_period, v.locale))}
    ${fact(v.t('deposit'), formatMoney(d.deposit.amount, d.deposit.currency, v.locale))} ${safely(() => termFacts(d, v))}
  </dl>
  <p part="free-units" class="free-units">${free}</p>`;
}

/** The dialog's content: the heading at once, the rest when the Detail is there (or `pending`: loading or an error). */
export function detailsView(
  listing: Summary,
  detail: ListingDetail | null,
  pending: TemplateResult,
  v: DetailsView,
): TemplateResult {
  return html`<div class="sheet">
    <div class="sheet-head">
      <h2 id="details-title"><bdi>${listing.title}</bdi> <span class="code">${listing.code}</span></h2>
      <button type="button" class="secondary" @click=${v.onClose}>${v.t('close')}</button>
    </div>
    ${
      detail
        ? html`${facts(detail, v)} ${safely(() => [scheduleSection(detail, v.terms(detail), v), moveInSection(detail, v.terms(detail), v)])}
          ${
            detail.description
              ? html`<section>
                <h3>${v.t('description')}</h3>
                <p class="description">${detail.description}</p>
              </section>`
              : nothing
          }
          ${gallery(detail.photos, v)}
          <div class="actions">${rentLink(detail, v)}</div>`
        : pending
    }
  </div>`;
}
