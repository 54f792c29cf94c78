// Cover photos load as their cards come near the viewport: a long list gives an src only to the images a visitor can
// reach soon, and an image on show follows a changed photo on refresh.
import { equal, ok } from './assert.ts';
import {
  cards,
  describe,
  frames,
  it,
  liveAttributes,
  mount,
  part,
  server,
  token,
  waitFor,
  waitForCards,
} from './helpers.ts';

const srcOf = (card: HTMLElement) => part(card, 'photo')?.getAttribute('src') ?? null;

describe('cover photos', () => {
  it('gives an src only to photos near the viewport, and to the others as they are scrolled to', async () => {
    const expected = await server.fixture('many');
    // Scrolled inside a box, not the page: scrolling the page can bring this tab to the front and hide the other
    // test file's tab, whose refreshing widgets then pause (as they should in a hidden tab).
    const box = document.createElement('div');
    box.style.cssText = 'height: 600px; overflow: auto';
    document.body.append(box);
    const el = mount({ ...liveAttributes('many', token()), locale: 'en' }, undefined, box);
    const shown = await waitForCards(el, expected.length);
    const first = shown[0]!;
    const last = shown.at(-1)!;
    await waitFor(() => srcOf(first), 'the first photo gets its src');
    equal(srcOf(first), expected[0]?.cover_photo?.url);
    await frames();
    equal(part(last, 'photo')?.getAttribute('alt'), `Photo ${expected.length}`, 'the image and its alt text are there');
    equal(srcOf(last), null, 'no src yet for a photo thousands of pixels below the fold');
    const waiting = shown.filter((c) => srcOf(c) === null).length;
    ok(waiting > 0 && waiting < expected.length, `some photos wait (${waiting} of ${expected.length})`);

    box.scrollTop = box.scrollHeight;
    await waitFor(() => srcOf(last), 'the last photo gets its src once scrolled to');
    equal(srcOf(last), expected.at(-1)?.cover_photo?.url);
    box.remove();
  });

  it('shows a changed cover photo on refresh, in the same image element', async () => {
    const t = token();
    const el = mount({ ...liveAttributes('many', t), locale: 'en', refresh: '1' });
    const [first] = await waitForCards(el, 60);
    const img = part(first!, 'photo')!;
    await waitFor(() => srcOf(first!)?.endsWith('/img/front.svg'), 'the first photo');

    await server.bump(t); // the first listing gets another cover photo
    await waitFor(() => srcOf(first!)?.endsWith('/img/locker.svg'), 'the new cover photo', 4000);
    equal(part(cards(el)[0]!, 'photo'), img, 'the very same <img>');
    equal(img.getAttribute('alt'), 'Locker');
  });
});

describe('a listing without photos', () => {
  it('shows a labelled placeholder where its photo would be, not an empty box', async () => {
    const expected = await server.fixture('basic');
    const el = mount({ ...liveAttributes('basic', token()), locale: 'en' });
    const shown = await waitForCards(el, expected.length);
    const without = expected.findIndex((l) => l.cover_photo === null);
    const withPhoto = expected.findIndex((l) => l.cover_photo !== null);
    ok(without >= 0, 'the fixture has a listing without photos');
    const placeholder = part(shown[without]!, 'no-photo');
    equal(placeholder?.getAttribute('role'), 'img');
    equal(placeholder?.getAttribute('aria-label'), 'No photo yet');
    ok((placeholder?.getBoundingClientRect().height ?? 0) > 20, 'it fills the photo area');
    if (withPhoto >= 0) equal(part(shown[withPhoto]!, 'no-photo'), null, 'a listing with a photo has none');
  });
});
