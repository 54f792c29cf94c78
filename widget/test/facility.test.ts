// show-facility: a header with the facility's address and a plain OpenStreetMap link (nothing loaded from it), today's
// office and access hours with "open now" computed in the facility's time zone, and the amenities, in three languages.
import { equal, deepEqual, includes, ok } from './assert.ts';
import {
  describe,
  it,
  liveAttributes,
  mount,
  part,
  root,
  setClock,
  token,
  visibleText,
  waitFor,
  waitForCards,
} from './helpers.ts';

/** The live `terms` scenario's header, once the listings show. */
async function header(locale = 'en', attributes: Record<string, string | boolean> = {}) {
  const el = mount({ ...liveAttributes('terms', token()), locale, 'show-facility': true, ...attributes });
  await waitForCards(el, 3);
  return { el, header: await waitFor(() => part(root(el), 'facility'), 'the facility header') };
}

/** "Office: Open now 09:00–18:00" per row of the hours. */
const hours = (header: HTMLElement) =>
  [...header.querySelectorAll('.hours > div')].map(
    (row) => `${visibleText(row.querySelector('dt'))}: ${visibleText(row.querySelector('dd'))}`,
  );

describe('the facility header (show-facility)', () => {
  it('is not shown unless asked', async () => {
    const el = mount({ ...liveAttributes('terms', token()), locale: 'en' });
    await waitForCards(el, 3);
    equal(part(root(el), 'facility'), null);
  });

  it('shows the address with a plain link to OpenStreetMap, and loads nothing from it', async () => {
    const { el, header: box } = await header();
    includes(box.textContent, 'SafeBox Wroclaw Centrum');
    includes(visibleText(box), 'ul. Legnicka 12, 53-674 Wrocław Map');
    const link = box.querySelector('a');
    equal(
      link?.getAttribute('href'),
      'https://www.openstreetmap.org/?mlat=51.1129&mlon=17.0112#map=17/51.1129/17.0112',
    );
    equal(link?.getAttribute('target'), '_blank');
    equal(link?.getAttribute('rel'), 'noopener');
    includes(link?.textContent, '(OpenStreetMap) (opens in a new tab)', 'said to screen readers');
    const fetched = performance.getEntriesByType('resource').map((e) => e.name);
    deepEqual(
      fetched.filter((url) => url.includes('openstreetmap')),
      [],
      'no script, tile or image from the map',
    );
    equal(root(el).querySelectorAll('iframe, script, img[src*="openstreetmap"]').length, 0);
  });

  it('says "open now" in the facility\'s time zone, not the visitor\'s', async () => {
    // Monday 30 November 2026, 17:30 UTC: 18:30 in Wrocław, after the office closes at 18:00 (but not in UTC).
    setClock(Date.parse('2026-11-30T17:30:00Z'));
    deepEqual(hours((await header()).header), ['Office: Closed now 09:00–18:00', 'Access: Open now 00:00–24:00']);
    // Saturday 28 November 2026, 09:30 UTC: 10:30 in Wrocław, inside Saturday's 10:00–14:00.
    setClock(Date.parse('2026-11-28T09:30:00Z'));
    deepEqual(hours((await header()).header), ['Office: Open now 10:00–14:00', 'Access: Open now 00:00–24:00']);
    // Sunday: no office hours at all.
    setClock(Date.parse('2026-11-29T11:00:00Z'));
    equal(hours((await header()).header)[0], 'Office: Closed now');
  });

  it('turns "open now" to "closed now" when the office closes, with no new data, and stops once removed', async () => {
    // Monday 30 November 2026, 16:59:58 UTC: two seconds before the office in Wrocław closes at 18:00.
    const closing = Date.parse('2026-11-30T17:00:00Z');
    setClock(closing - 2000);
    const { el, header: box } = await header();
    equal(hours(box)[0], 'Office: Open now 09:00–18:00');
    await waitFor(
      () => hours(part(root(el), 'facility')!)[0] === 'Office: Closed now 09:00–18:00',
      'the office to close on screen',
      4000,
    );
    // Removed two seconds before it opens again (Tuesday 09:00): nothing re-renders it meanwhile.
    const opening = Date.parse('2026-12-01T08:00:00Z');
    setClock(opening - 2000);
    const other = await header();
    equal(hours(other.header)[0], 'Office: Closed now 09:00–18:00');
    const renders = { count: 0 };
    const update = other.el.requestUpdate.bind(other.el);
    other.el.requestUpdate = (...args: Parameters<typeof update>) => (renders.count++, update(...args));
    other.el.remove();
    await waitFor(() => Date.now() > opening + 500, 'the opening to pass', 4000);
    equal(renders.count, 0, 'no render after the element left the page');
  });

  it('lists the amenities, and speaks Polish and German', async () => {
    const en = (await header()).header;
    deepEqual(
      [...en.querySelectorAll('.amenities li')].map((li) => li.textContent),
      ['CCTV', 'Gated', 'Loading bay', 'Trolleys'],
    );
    setClock(Date.parse('2026-11-30T10:00:00Z'));
    const pl = (await header('pl')).header;
    deepEqual(
      [...pl.querySelectorAll('.amenities li')].map((li) => li.textContent),
      ['Monitoring', 'Teren ogrodzony', 'Rampa załadunkowa', 'Wózki'],
    );
    equal(hours(pl)[0], 'Biuro: Teraz otwarte 09:00–18:00');
    includes(pl.querySelector('a')?.textContent, 'Mapa');
    const de = (await header('de')).header;
    equal(hours(de)[1], 'Zugang: Jetzt geöffnet 00:00–24:00');
    includes([...de.querySelectorAll('.amenities li')].map((li) => li.textContent).join(), 'Videoüberwachung');
  });

  it('shows no header for a facility the answer says nothing more of than its name', async () => {
    const el = mount({ ...liveAttributes('basic', token()), locale: 'en', 'show-facility': true });
    await waitForCards(el, 3);
    equal(part(root(el), 'facility'), null);
    ok(root(el).querySelector('.grid'), 'the units still show');
  });
});
