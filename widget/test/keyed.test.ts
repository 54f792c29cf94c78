// Cards are keyed by listing id: a refresh that reorders them moves each listing's own card, and focus stays on the
// listing the visitor was on, on the same button or link.
import { equal, ok } from './assert.ts';
import { cards, describe, it, liveAttributes, mount, root, server, token, waitFor, waitForCards } from './helpers.ts';

describe('keyed cards', () => {
  for (const action of ['details', 'rent']) {
    it(`keeps focus on the ${action} control of the listing it was on when a refresh reorders the cards`, async () => {
      const t = token();
      const el = mount({ ...liveAttributes('basic', t), locale: 'en', refresh: '1' });
      const shown = await waitForCards(el, 3);
      const ids = shown.map((c) => c.dataset['listingId']);
      const first = shown[0]!;
      const control = first.querySelector<HTMLElement>(`[data-action="${action}"]`)!;
      control.focus();
      equal(root(el).activeElement, control, 'focus on the first card before the refresh');

      await server.reverse(t);
      await waitFor(() => cards(el)[0]!.dataset['listingId'] !== ids[0], 'the reordered cards');
      equal(
        cards(el)
          .map((c) => c.dataset['listingId'])
          .join(),
        [...ids].reverse().join(),
        'in the new order',
      );
      ok(cards(el).at(-1) === first, "the listing's own card moved to the end, not rewritten in place");
      equal(root(el).activeElement, control, 'focus still on the same control of the same listing');
    });
  }
});
