// The palette: light-dark() pairs where the engine has light-dark() (Chrome 123, Firefox 120, Safari 17.5), the light
// colours where it has not. An older engine is stood in for by the widget's own stylesheets with light-dark() renamed to
// a function no engine knows: what such an engine makes of the widget's CSS, in each of the three engines.
import type { CSSResult } from 'lit';
import { detailsStyles } from '../src/details.styles.ts';
import { styles } from '../src/storage-listings.styles.ts';
import { termsStyles } from '../src/terms.styles.ts';
import { deepEqual, equal, ok } from './assert.ts';
import { describe, it, liveAttributes, mount, part, root, token, waitFor, waitForCards } from './helpers.ts';

const SHEETS: CSSResult[] = [styles, detailsStyles, termsStyles];
const SUPPORTS = '@supports (color: light-dark(#000, #fff))';
const css = (sheets: CSSResult[]) => sheets.map((s) => s.cssText).join('\n');

/** The text of `css` without its `@supports (light-dark)` blocks, and those blocks' contents. */
function split(css: string): { plain: string; pairs: string[] } {
  const pairs: string[] = [];
  let plain = css;
  for (let at = plain.indexOf(SUPPORTS); at >= 0; at = plain.indexOf(SUPPORTS)) {
    const open = plain.indexOf('{', at);
    let depth = 0;
    let end = open;
    for (; end < plain.length; end++) {
      if (plain[end] === '{') depth++;
      else if (plain[end] === '}' && --depth === 0) break;
    }
    pairs.push(plain.slice(open + 1, end));
    plain = plain.slice(0, at) + plain.slice(end + 1);
  }
  return { plain, pairs };
}

const LIGHT = {
  card: ['rgb(255, 255, 255)', 'rgb(31, 35, 40)', 'rgb(209, 217, 224)'],
  media: 'rgb(246, 248, 250)',
  code: 'rgb(89, 99, 110)',
  rent: ['rgb(10, 102, 194)', 'rgb(255, 255, 255)'],
  details: ['rgb(255, 255, 255)', 'rgb(10, 102, 194)'],
  freeUnits: ['rgb(26, 127, 55)', 'rgb(154, 103, 0)', 'rgb(207, 34, 46)'],
  promotion: 'rgb(191, 57, 137)',
};
const DARK = {
  card: ['rgb(21, 27, 35)', 'rgb(230, 237, 243)', 'rgb(61, 68, 77)'],
  media: 'rgb(33, 40, 48)',
  code: 'rgb(145, 152, 161)',
  rent: ['rgb(68, 147, 248)', 'rgb(13, 17, 23)'],
  details: ['rgb(21, 27, 35)', 'rgb(68, 147, 248)'],
  freeUnits: ['rgb(63, 185, 80)', 'rgb(210, 153, 34)', 'rgb(248, 81, 73)'],
  promotion: 'rgb(247, 120, 186)',
};

/** The basic scenario's cards (one with units, the last unit, sold out) and the terms scenario's promotion. */
async function widgets(extra: Record<string, string> = {}) {
  const basic = mount({ ...liveAttributes('basic', token()), locale: 'en', ...extra });
  const terms = mount({ ...liveAttributes('terms', token()), locale: 'en', ...extra });
  await waitForCards(basic, 3);
  await waitFor(() => part(root(terms), 'promotion'), 'a promotion');
  return { basic, terms };
}

/** The colours the widgets paint, as the engine computed them. */
function painted({ basic, terms }: { basic: HTMLElement; terms: HTMLElement }) {
  const style = (scope: ParentNode, selector: string) => getComputedStyle(scope.querySelector(selector)!);
  const b = root(basic);
  const card = style(b, '.card');
  const rent = style(b, '.card:not(.sold-out) [part~="rent-link"]');
  const details = style(b, '.card [data-action="details"]');
  return {
    card: [card.backgroundColor, card.color, card.borderTopColor],
    media: style(b, '.media').backgroundColor,
    code: style(b, '.code').color,
    rent: [rent.backgroundColor, rent.color],
    details: [details.backgroundColor, details.color],
    freeUnits: ['.card:not(.last):not(.sold-out)', '.card.last', '.card.sold-out'].map(
      (c) => style(b, `${c} [part~="free-units"]`).color,
    ),
    promotion: style(root(terms), '.promotion-title').color,
  };
}

/** The widget's stylesheets as an engine without light-dark() reads them: each such value unknown to it. */
function withoutLightDark(element: HTMLElement): void {
  const text = css(SHEETS).replaceAll('light-dark(', 'light-dark-unknown(');
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(text);
  root(element).adoptedStyleSheets = [sheet];
}

function darkPage(): () => void {
  const html = document.documentElement;
  const before = html.style.colorScheme;
  html.style.colorScheme = 'dark';
  return () => void (html.style.colorScheme = before);
}

describe('colours', () => {
  it('declares each light-dark() pair under @supports, after a plain light colour for engines without it', () => {
    const all = css(SHEETS);
    const { plain, pairs } = split(all);
    equal(plain.includes('light-dark('), false, 'no light-dark() outside @supports (color: light-dark(...))');
    const declared = pairs.join('\n');
    const found = [...declared.matchAll(/(--[\w-]+):\s*var\((--sl-[\w-]+),\s*light-dark\((#\w+),\s*#\w+\)\)/g)];
    ok(found.length >= 11, 'every palette colour is a pair');
    equal(found.length, declared.split('light-dark(').length - 1, 'each light-dark() is a themed custom property');
    for (const [pair, name, themed, light] of found) {
      const fallback = all.search(new RegExp(`${name}:\\s*var\\(${themed},\\s*${light}\\)`));
      ok(fallback >= 0, `${name} falls back to var(${themed}, ${light})`);
      ok(fallback < all.indexOf(pair), `${name}'s plain colour comes before its pair`);
    }
  });

  it('paints the light palette on a light page and the dark one on a dark page', async () => {
    const shown = await widgets();
    deepEqual(painted(shown), LIGHT, 'a light page');
    const restore = darkPage();
    try {
      deepEqual(painted(shown), DARK, 'a dark page');
    } finally {
      restore();
    }
  });

  it('paints the light palette where the engine has no light-dark(), on light and dark pages alike', async () => {
    const shown = await widgets();
    withoutLightDark(shown.basic);
    withoutLightDark(shown.terms);
    deepEqual(painted(shown), LIGHT, 'a light page');
    const restore = darkPage();
    try {
      deepEqual(painted(shown), LIGHT, 'a dark page: the light colours, each one set');
    } finally {
      restore();
    }
  });

  it('takes the --sl-* properties with light-dark() and without', async () => {
    const themed = { style: '--sl-accent: #7a3e00; --sl-bg: #fffbe6; --sl-promotion: #005f73' };
    const shown = await widgets(themed);
    const expected = {
      rent: 'rgb(122, 62, 0)',
      card: 'rgb(255, 251, 230)',
      promotion: 'rgb(0, 95, 115)',
    };
    const picked = () => {
      const all = painted(shown);
      return { rent: all.rent[0], card: all.card[0], promotion: all.promotion };
    };
    deepEqual(picked(), expected, 'with light-dark()');
    withoutLightDark(shown.basic);
    withoutLightDark(shown.terms);
    deepEqual(picked(), expected, 'without light-dark()');
  });
});
