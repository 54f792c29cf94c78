// --sl-font-size ("Base font size") scales every text the widget shows, each in proportion: the cards, the facility
// header, the details dialog, and the loading state with them, so that skeletons still measure what the cards will.
import { ok } from './assert.ts';
import {
  cards,
  describe,
  dialogOf,
  frames,
  it,
  liveAttributes,
  mount,
  part,
  root,
  token,
  waitFor,
  waitForCards,
} from './helpers.ts';

const LARGE = 24;
const DEFAULT = 16;

/** The texts compared, by selector: a card's, the header's and (opened) the dialog's. */
const CARD_TEXTS = [
  '[role="heading"]',
  '.code',
  '.area',
  '.promotion-title',
  '[part~="price"]',
  '[part~="price"] .period',
  '[part~="regular-price"]',
  '[part~="features"]',
  '[part~="free-units"]',
  '[part~="rent-link"]',
  '[data-action="details"]',
  '.facility-name',
  '.hours dt',
];
const DIALOG_TEXTS = ['h2', 'h2 .code', 'h3', 'dt', 'dd', '.facts .period', '.secondary'];

const fontSize = (scope: ParentNode, selector: string) => {
  const found = scope.querySelector(selector);
  if (!found) throw new Error(`no ${selector}`);
  return parseFloat(getComputedStyle(found).fontSize);
};

/** A widget of the `terms` scenario (promotions, features, the facility header) at a base font size, loaded. */
async function loaded(size?: number): Promise<HTMLElement> {
  const el = mount({ ...liveAttributes('terms', token()), locale: 'en', 'show-facility': true });
  if (size) el.style.setProperty('--sl-font-size', `${size}px`);
  await waitForCards(el, 3);
  await waitFor(() => part(root(el), 'facility'), 'the facility header');
  return el;
}

async function openDetails(el: HTMLElement): Promise<HTMLDialogElement> {
  cards(el)[0]!.querySelector<HTMLButtonElement>('[data-action="details"]')!.click();
  const dialog = await dialogOf(el);
  await waitFor(() => dialog.querySelector('.facts'), 'the details');
  return dialog;
}

/** The texts whose size is not the default's times the scale. */
function unscaled(base: ParentNode, large: ParentNode, selectors: string[]): string[] {
  return selectors.flatMap((selector) => {
    const [from, to] = [fontSize(base, selector), fontSize(large, selector)];
    return Math.abs(to / from - LARGE / DEFAULT) < 0.01 ? [] : [`${selector}: ${from} -> ${to} px`];
  });
}

describe('--sl-font-size', () => {
  it('scales every text on the cards, in the facility header and in the details dialog, each in proportion', async () => {
    const [base, large] = [await loaded(), await loaded(LARGE)];
    const found = unscaled(root(base), root(large), CARD_TEXTS);
    ok(found.length === 0, `texts that keep their size: ${found.join('; ')}`);
    const [baseDialog, largeDialog] = [await openDetails(base), await openDetails(large)];
    const inDialog = unscaled(baseDialog, largeDialog, DIALOG_TEXTS);
    ok(inDialog.length === 0, `dialog texts that keep their size: ${inDialog.join('; ')}`);
  });

  it('keeps the skeleton cards as tall as the cards they stand for', async () => {
    const el = mount({ ...liveAttributes('slow', token()), locale: 'en' });
    el.style.setProperty('--sl-font-size', `${LARGE}px`);
    // one card per row, wide enough that no text of the card wraps (a skeleton cannot know where a text wraps)
    el.style.setProperty('--sl-card-min-width', '40rem');
    el.style.width = '700px';
    const skeleton = await waitFor(() => root(el).querySelector<HTMLElement>('.skeleton'), 'a skeleton card');
    await frames();
    const before = skeleton.getBoundingClientRect().height;
    const [card] = await waitForCards(el, 3);
    await frames();
    const after = card!.getBoundingClientRect().height;
    ok(Math.abs(after - before) < 1, `same height at ${LARGE} px (${before} -> ${after})`);
  });
});
