// Operator text cannot turn the widget's own words around: every value the operator wrote (names, titles, the
// address's lines, a protection plan's title) is a bidi isolate, on the cards, the facility header and in the details
// dialog, so a RIGHT-TO-LEFT OVERRIDE in one reverses that value alone. Nor can a right-to-left page: the widget's
// languages are all left-to-right, and its words are drawn so; in a language it has no words for, it keeps the page's
// direction, which that language's numbers, money and periods are formatted for.
import { deepEqual, ok } from './assert.ts';
import {
  cards,
  describe,
  dialogOf,
  it,
  liveAttributes,
  mount,
  part,
  root,
  token,
  waitFor,
  waitForCards,
} from './helpers.ts';

const RLO = '\u202e';
const FSI = '\u2068';
const PDI = '\u2069';

/**
 * Whether an element ends the bidi run of the text around it: an isolate (a <bdi>), or a box of its own (a block, a
 * flex item, an inline-block), which bidi treats as a paragraph or as one neutral character.
 */
function isolates(element: Element): boolean {
  const { unicodeBidi, display } = getComputedStyle(element);
  return unicodeBidi === 'isolate' || (display !== 'inline' && display !== 'contents');
}

/**
 * Texts where an override reaches past its value: a value is isolated when the nearest element that isolates it
 * holds that value alone, or when it stands between FIRST STRONG ISOLATE and POP DIRECTIONAL ISOLATE in the text.
 * Text only for screen readers (`.sr-only`) is never drawn, so bidi does not apply to it.
 */
function unisolated(from: Node): string[] {
  const found: string[] = [];
  const walker = document.createTreeWalker(from, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node.textContent ?? '';
    if (!text.includes(RLO) || node.parentElement!.closest('.sr-only')) continue;
    let box = node.parentElement!;
    while (!isolates(box) && box.parentElement) box = box.parentElement;
    const alone = text.split(RLO).length === 2 && box.textContent!.trim() === text.trim();
    const between = [...text.matchAll(/\u202e/g)].every(
      (m) => text[m.index - 1] === FSI && text.indexOf(PDI, m.index) > m.index,
    );
    if (!alone && !between) found.push(text);
  }
  return found;
}

/** Overrides in the texts under `from`: the fixture reaches what it is checked on. */
const overrides = (from: Node) => (from.textContent ?? '').split(RLO).length - 1;

describe('operator text with a bidi override', () => {
  it('is isolated on the cards, in the facility header and in the details dialog', async () => {
    const el = mount({ ...liveAttributes('terms-rlo', token()), locale: 'en', 'show-facility': true });
    const [first] = await waitForCards(el, 3);
    const header = await waitFor(() => part(root(el), 'facility'), 'the facility header');
    ok(overrides(header) >= 4, 'the name and the address lines');
    deepEqual(unisolated(root(el)), [], 'cards and header');

    (first!.querySelector('[data-action="details"]') as HTMLButtonElement).click();
    const dialog = await dialogOf(el);
    await waitFor(() => dialog.querySelector('.description'), 'the details');
    ok(overrides(dialog) >= 4, 'the title, fees, plans and description');
    deepEqual(unisolated(dialog), [], 'details');
  });
});

/** Where a piece of an element's text is drawn: the left edge of its first occurrence. */
function leftOf(element: Element, piece: string): number {
  const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const at = node.textContent!.indexOf(piece);
    if (at < 0) continue;
    const range = document.createRange();
    range.setStart(node, at);
    range.setEnd(node, at + piece.length);
    return range.getBoundingClientRect().left;
  }
  throw new Error(`no "${piece}" in ${element.textContent}`);
}

describe('a right-to-left page', () => {
  it("draws the widget's own words left to right, on the cards and in the details dialog", async () => {
    const page = document.createElement('div');
    Object.assign(page, { dir: 'rtl', lang: 'he' });
    document.body.append(page);
    try {
      const el = mount({ ...liveAttributes('basic', token()), locale: 'en' }, undefined, page);
      const [first] = await waitForCards(el, 3);
      const line = [...root(el).querySelectorAll('[part~="free-units"]')].find((p) =>
        p.textContent!.includes('units'),
      )!;
      const count = /\d+/.exec(line.textContent!)![0];
      ok(leftOf(line, count) < leftOf(line, 'units'), `"${line.textContent}" is drawn with its count first`);
      const area = first!.querySelector('.area')!;
      ok(leftOf(area, area.textContent!.trim().charAt(0)) < leftOf(area, 'm²'), `"${area.textContent}" as written`);
      deepEqual(
        cards(el).map((card) => getComputedStyle(card).direction),
        ['ltr', 'ltr', 'ltr'],
      );

      (first!.querySelector('[data-action="details"]') as HTMLButtonElement).click();
      const dialog = await dialogOf(el);
      await waitFor(() => dialog.querySelector('.facts'), 'the details');
      deepEqual(getComputedStyle(dialog).direction, 'ltr', 'the dialog');
    } finally {
      page.remove();
    }
  });

  it("takes the page's direction when it speaks the page's language, which is none of the widget's", async () => {
    const page = document.createElement('div');
    Object.assign(page, { dir: 'rtl', lang: 'he' });
    document.body.append(page);
    try {
      const el = mount(liveAttributes('terms', token()), undefined, page);
      await waitForCards(el, 3);
      const price = part(root(el), 'promotion')!.querySelector('[aria-hidden="true"]')!;
      const [amount, period, regular] = ['.amount', '.period', 's'].map((s) => boxOf(price.querySelector(s)!));
      // Right to left, each part whole: a number or word of one part drawn among another's would overlap it.
      ok(
        amount!.left >= period!.right - 1 && period!.left >= regular!.right - 1,
        `"${price.textContent}" reads from the right: the promoted price, the period, the regular price`,
      );
      deepEqual(getComputedStyle(cards(el)[0]!).direction, 'rtl');
    } finally {
      page.remove();
    }
  });
});

/** The box an element's text is drawn in, from its leftmost piece to its rightmost. */
function boxOf(element: Element): DOMRect {
  const range = document.createRange();
  range.selectNodeContents(element);
  return range.getBoundingClientRect();
}
