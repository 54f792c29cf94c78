// The loading state at the size the data will take: skeleton cards of the final size, as many as reserved, under a
// skeleton of the facility header; and the reserved height kept by an error or empty state that replaces it.
import { html, nothing, type TemplateResult } from 'lit';
import { skeletonCard } from './cards.ts';

/** Cards reserved for at most: a longer list grows when it arrives (shared/embed-reserve.ts reserves as many). */
const MAX_CARDS = 60;

/** How many skeleton cards: the `cards` the snippet gives (the facility's current count), else 3, never past `limit`. */
export function reservedCards(cards: number | undefined, limit: number | undefined): number {
  const wanted = Number(cards) > 0 ? Math.trunc(Number(cards)) : 3;
  return Math.min(wanted, Number(limit) > 0 ? Math.trunc(Number(limit)) : MAX_CARDS, MAX_CARDS);
}

/** The facility header's reserved box, while loading and until the header's chunk has come. */
export const headerBox = html`<div class="notice facility skeleton" aria-hidden="true"></div>`;

export function loadingView(count: number, showNet: boolean, showFacility: boolean): TemplateResult {
  const skeletons = Array.from({ length: count }, () => skeletonCard(showNet));
  return html`${showFacility ? headerBox : nothing}
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
