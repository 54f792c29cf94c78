// The loading state at the size the page reserved: skeleton cards of a card's size, as many as reserved, under a
// skeleton of the facility header; and the reserved height kept by an error or empty state that replaces it.
import { html, nothing, type TemplateResult } from 'lit';
import { skeletonCard } from './cards.ts';

/** As shared/embed-reserve.ts and placeholder-reserve.ts reserve (not imported: it would bring them into the core). */
const MAX_CARDS = 60;
const DEFAULT_CARDS = 3;

/** The facility header's reserved box, while loading and until the header's chunk has come. */
export const headerBox = html`<div class="notice facility skeleton" aria-hidden="true"></div>`;

/**
 * The height the page reserved: with `cards`, the panel snippet's (that many cards, the header with show-facility);
 * without, the README placeholder's (three cards, no header). A `limit` tells only when the list comes.
 */
export function loadingView(cards: number | undefined, showNet: boolean, showFacility: boolean): TemplateResult {
  const given = Number(cards) > 0;
  const count = given ? Math.min(Math.trunc(Number(cards)), MAX_CARDS) : DEFAULT_CARDS;
  const skeletons = Array.from({ length: count }, () => skeletonCard(showNet));
  return html`${showFacility && given ? headerBox : nothing}
    <ul class="grid" aria-hidden="true">${skeletons}</ul>`;
}

/**
 * An error or empty box keeps the element at the height the loading state had, beside what else it shows (the facility
 * header): set through the CSSOM, which a strict CSP allows.
 */
export function keepHeight(host: HTMLElement, root: ParentNode, height: number): void {
  const box = root.querySelector<HTMLElement>('[part~="error"], [part~="empty"], [part~="withdrawn"]');
  if (box) box.style.minHeight = `${Math.max(height - (host.offsetHeight - box.offsetHeight), 0)}px`;
}
