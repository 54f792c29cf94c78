// A responsive grid: one column at 320 px without horizontal overflow, several at 1440 px.
import { equal, ok } from './assert.ts';
import { describe, framedWidgets, it, openPage, root, token } from './helpers.ts';

function columns(el: HTMLElement): number {
  const grid = root(el).querySelector('.grid') as HTMLElement;
  return el.ownerDocument.defaultView!.getComputedStyle(grid).gridTemplateColumns.split(' ').length;
}

describe('layout', () => {
  // Each width is the viewport of a frame of that size: a browser window (WebKitGTK's MiniBrowser's) may not get as
  // narrow as a phone, a frame does in every engine. Tall enough that the frames do not scroll.
  it('fits 320 px in one column and uses several columns at 1440 px', async () => {
    const phone = openPage(`/host/page.html?t=${token()}`, { width: 320, height: 3000 });
    const desktop = openPage(`/host/page.html?t=${token()}`, { width: 1440, height: 900 });
    const [narrow] = await framedWidgets(phone, 1);
    const [wide] = await framedWidgets(desktop, 1);

    const page = phone.contentDocument!.documentElement;
    equal(page.clientWidth, 320, 'a 320 px viewport');
    equal(columns(narrow!), 1, 'one column at 320 px');
    ok(page.scrollWidth <= 320, `no horizontal scroll (${page.scrollWidth})`);
    for (const card of root(narrow!).querySelectorAll('.card'))
      ok(card.scrollWidth <= card.clientWidth + 1, 'nothing spills out');

    ok(columns(wide!) >= 4, `several columns at 1440 px (${columns(wide!)})`);
  });
});
