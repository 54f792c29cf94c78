// A responsive grid: one column at 320 px without horizontal overflow, several at 1440 px.
import { setViewport } from '@web/test-runner-commands';
import { equal, ok } from './assert.ts';
import { describe, it, liveAttributes, mount, root, token, waitFor, waitForCards } from './helpers.ts';

function columns(el: HTMLElement): number {
  const grid = root(el).querySelector('.grid') as HTMLElement;
  return getComputedStyle(grid).gridTemplateColumns.split(' ').length;
}

describe('layout', () => {
  it('fits 320 px in one column and uses several columns at 1440 px', async () => {
    await setViewport({ width: 320, height: 800 });
    const el = mount({ ...liveAttributes('basic', token()), locale: 'en' });
    await waitForCards(el, 3);
    equal(columns(el), 1, 'one column at 320 px');
    ok(document.documentElement.scrollWidth <= 320, `no horizontal scroll (${document.documentElement.scrollWidth})`);
    for (const card of root(el).querySelectorAll('.card'))
      ok(card.scrollWidth <= card.clientWidth + 1, 'nothing spills out');

    await setViewport({ width: 1440, height: 900 });
    // Firefox applies the new viewport a few frames later than Chromium.
    await waitFor(() => columns(el) >= 4, `several columns at 1440 px (${innerWidth} px wide, ${columns(el)})`, 2000);
  });
});
