// Focus on a card's button or link, kept across a refresh that reorders the cards: a node the list moves loses focus
// in every engine, so the element notes where focus was before an update and puts it back on the same listing after.
import { cardIdOf } from './cards.ts';

export interface FocusAt {
  id: string;
  action: string;
}

/** The listing and action (`details`, `rent`) focus is on inside `root`, if any. */
export function focusAt(root: ParentNode): FocusAt | undefined {
  const active = (root as ShadowRoot).activeElement as HTMLElement | null;
  const action = active?.dataset['action'];
  const id = active && action ? cardIdOf(active) : null;
  return id && action ? { id, action } : undefined;
}

/** Puts focus back on the listing's same action when the update took it away. */
export function restoreFocus(root: ParentNode, at: FocusAt | undefined): void {
  if (!at || (root as ShadowRoot).activeElement) return;
  const card = [...root.querySelectorAll<HTMLElement>('[data-listing-id]')].find(
    (c) => c.dataset['listingId'] === at.id,
  );
  card?.querySelector<HTMLElement>(`[data-action="${at.action}"]`)?.focus();
}
