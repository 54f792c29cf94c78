// Rendering from both sources: cards, prices per locale and currency, free units, rent links, and the details dialog.
import { sendKeys } from '@web/test-runner-commands';
import { deepEqual, equal, includes, ok } from './assert.ts';
import {
  cards,
  describe,
  it,
  liveAttributes,
  mount,
  part,
  record,
  root,
  server,
  token,
  visibleText,
  waitFor,
  waitForCards,
  dialogOf,
} from './helpers.ts';

const money = (locale: string, currency: string, minor: number) =>
  new Intl.NumberFormat(locale, { style: 'currency', currency }).format(minor / 100);

describe('rendering listings', () => {
  it('renders live listings: title, code, area, price, free units, cover photo and rent link', async () => {
    const t = token();
    const expected = await server.fixture('basic');
    const el = mount({ ...liveAttributes('basic', t), locale: 'en' });
    const shown = await waitForCards(el, 3);

    deepEqual(
      shown.map((c) => c.dataset.listingId),
      expected.map((l) => l.id),
      'cards in the API order',
    );
    const [first, last, soldOut] = shown as [HTMLElement, HTMLElement, HTMLElement];
    includes(first.textContent, 'Medium unit, ground floor');
    includes(first.textContent, 'M-07');
    includes(first.textContent, '7.5\u00a0m²');
    includes(part(first, 'price')?.textContent, `${money('en', 'PLN', 32900)}`);
    includes(part(first, 'price')?.textContent, '/ month');
    equal(part(first, 'free-units')?.textContent?.trim(), '3 units left');
    equal(part(last, 'free-units')?.textContent?.trim(), 'Last unit');
    equal(part(soldOut, 'free-units')?.textContent?.trim(), 'Sold out');

    const photo = part(first, 'photo') as HTMLImageElement;
    await waitFor(() => photo.getAttribute('src'), 'the cover photo in view gets its src');
    equal(photo.getAttribute('src'), expected[0]?.photos[0]?.url, 'cover photo');
    equal(photo.alt, 'Front', 'alt text from the caption');

    const log = await server.log(t);
    equal(log.length, 1, 'one list request, no detail requests');
    equal(log[0]?.path, '/external/listings');
    equal(log[0]?.key, 'svc_live_Widget0Tests0Key0000000000000');
  });

  it('links each available listing to its rent_url, and offers no rent action when sold out', async () => {
    const expected = await server.fixture('basic');
    const el = mount({ ...liveAttributes('basic', token()), locale: 'en' });
    const shown = await waitForCards(el, 3);
    for (const [i, card] of shown.entries()) {
      const link = part(card, 'rent-link') as HTMLAnchorElement | null;
      if (expected[i]?.free_units) {
        ok(link, `rent link on ${expected[i]?.code}`);
        equal(link.getAttribute('href'), expected[i]?.rent_url);
        equal(link.target, '_blank');
        equal(link.rel, 'noopener');
      } else {
        equal(link, null, 'no rent link on a sold-out listing');
        equal(card.querySelectorAll('a').length, 0, 'no link at all on a sold-out listing');
      }
    }
  });

  it('sends available=true and sort to the API and applies limit itself', async () => {
    const t = token();
    const el = mount({ ...liveAttributes('basic', t), 'available-only': true, sort: '-price', limit: '1' });
    const [only] = await waitForCards(el);
    await new Promise((resolve) => setTimeout(resolve, 50));
    equal(cards(el).length, 1, 'limit');
    includes(only?.textContent, 'M-07', 'the dearest available unit');
    const [request] = await server.log(t);
    const query = new URLSearchParams(request?.query);
    equal(query.get('available'), 'true');
    equal(query.get('sort'), '-price');
    equal(query.has('limit'), false, 'limit is not an API parameter');
  });

  it('renders an unverified snapshot without keys-url, and sorts it on the client', async () => {
    const t = token();
    const el = mount({ src: `/snap/valid/listings.json?t=${t}`, sort: 'code', locale: 'en' });
    const shown = await waitForCards(el, 3);
    deepEqual(
      shown.map((c) => c.querySelector('.code')?.textContent),
      ['L-12', 'M-07', 'S-01'],
      'sorted by code',
    );
    const log = await server.log(t);
    deepEqual(
      log.map((e) => e.path),
      ['/snap/valid/listings.json'],
      'no signature or key requests without keys-url',
    );
  });

  it('formats prices for pl-PL in PLN and de-DE in EUR, with net and VAT when show-net is set', async () => {
    const pl = mount({ ...liveAttributes('basic', token()), locale: 'pl-PL', 'show-net': true });
    const de = mount({ ...liveAttributes('eur', token()), locale: 'de-DE', 'show-net': true });
    const [plCard] = await waitForCards(pl, 3);
    const [deCard] = await waitForCards(de);

    includes(part(plCard!, 'price')?.textContent, money('pl-PL', 'PLN', 32900));
    includes(part(plCard!, 'price')?.textContent, '/ miesiąc');
    includes(plCard?.querySelector('.net')?.textContent, money('pl-PL', 'PLN', 26748));
    equal(part(plCard!, 'free-units')?.textContent?.trim(), 'Zostały 3 jednostki');

    includes(part(deCard!, 'price')?.textContent, money('de-DE', 'EUR', 12950));
    includes(part(deCard!, 'price')?.textContent, '/ Monat');
    const vat = new Intl.NumberFormat('de-DE', { style: 'percent' }).format(0.19);
    includes(deCard?.querySelector('.net')?.textContent, `${money('de-DE', 'EUR', 10882)} netto zzgl. ${vat} MwSt.`);
    equal(visibleText(part(deCard!, 'rent-link')), 'Mieten');
  });

  it('takes its language from the page, and per-instance strings and rent-label override it', async () => {
    const before = document.documentElement.lang;
    document.documentElement.lang = 'de';
    try {
      const el = mount({ ...liveAttributes('basic', token()) });
      const custom = mount({
        ...liveAttributes('basic', token()),
        'rent-label': 'Book now',
        strings: JSON.stringify({ soldOut: 'Gone', details: 'More' }),
      });
      const [first] = await waitForCards(el, 3);
      equal(visibleText(part(first!, 'rent-link')), 'Mieten');
      const shown = await waitForCards(custom, 3);
      equal(visibleText(part(shown[0]!, 'rent-link')), 'Book now');
      equal(part(shown[2]!, 'free-units')?.textContent?.trim(), 'Gone');
      equal(visibleText(shown[0]?.querySelector('button')), 'More');
    } finally {
      document.documentElement.lang = before;
    }
  });

  it('follows <html lang> changed after load when it has no locale, and not while out of the page', async () => {
    const html = document.documentElement;
    const before = html.lang;
    html.lang = 'en';
    try {
      const el = mount({ ...liveAttributes('basic', token()) });
      const pinned = mount({ ...liveAttributes('basic', token()), locale: 'en' });
      const rent = (widget: HTMLElement) => visibleText(part(cards(widget)[0]!, 'rent-link'));
      await waitForCards(el, 3);
      await waitForCards(pinned, 3);
      equal(rent(el), 'Rent');
      html.lang = 'pl';
      await waitFor(() => rent(el) === 'Wynajmij', 'the Polish words');
      includes(part(cards(el)[0]!, 'price')?.textContent, '/ miesiąc', 'and Polish formats');
      equal(rent(pinned), 'Rent', 'the locale attribute still wins');

      let renders = 0;
      const update = el.requestUpdate.bind(el);
      el.requestUpdate = (...args: Parameters<typeof update>) => (renders++, update(...args));
      el.remove();
      // An observer made after the widget's hears of the change after it: by then the widget would have reacted.
      const heard = new Promise<void>((resolve) => {
        const observer = new MutationObserver(() => (observer.disconnect(), resolve()));
        observer.observe(html, { attributeFilter: ['lang'] });
      });
      html.lang = 'de';
      await heard;
      await el.updateComplete;
      equal(renders, 0, 'no render while out of the page');
      document.body.append(el);
      await waitFor(() => rent(el) === 'Mieten', 'the German words once back');
    } finally {
      html.lang = before;
    }
  });

  it('opens live details on demand: one detail request, periods in words, deposit, and a keyboard gallery', async () => {
    const t = token();
    const el = mount({ ...liveAttributes('basic', t), locale: 'en' });
    const [first] = await waitForCards(el, 3);
    const opener = first!.querySelector('button') as HTMLButtonElement;
    opener.focus();
    opener.click();
    const dialog = await dialogOf(el);
    await waitFor(() => dialog.open && dialog.querySelector('.facts'), 'details');
    ok(dialog.contains(root(el).activeElement), 'focus moves into the dialog');

    const text = dialog.textContent ?? '';
    includes(text, '2.5 × 3 × 2.4\u00a0m');
    includes(text, '1 month', 'minimum rental in words');
    includes(text, '14 days', 'notice period in words');
    includes(text, money('en', 'PLN', 29900), 'deposit');
    includes(text, 'Drive-up access.');
    const log = await server.log(t);
    deepEqual(
      log.map((e) => e.path),
      ['/external/listings', `/external/listings/${first!.dataset.listingId}`],
    );

    const caption = () => dialog.querySelector('figcaption')?.textContent;
    equal(caption(), 'Front');
    equal(dialog.querySelector('.gallery img')?.getAttribute('alt'), 'Front');
    (dialog.querySelector('.gallery-nav button:last-of-type') as HTMLButtonElement).focus();
    await sendKeys({ press: 'ArrowRight' });
    await waitFor(() => caption() === 'Inside', 'ArrowRight to the next photo');
    await sendKeys({ press: 'End' });
    await waitFor(() => caption() === 'Corridor', 'End to the last photo');
    await sendKeys({ press: 'ArrowRight' });
    await waitFor(() => caption() === 'Front', 'wraps around');
    await sendKeys({ press: 'Enter' }); // the focused "next" button
    await waitFor(() => caption() === 'Inside', 'the next button');
    includes(dialog.textContent, 'Photo 2 of 3');

    await sendKeys({ press: 'Escape' });
    await waitFor(() => !dialog.open, 'Escape closes the dialog');
    await waitFor(() => root(el).activeElement === opener, 'focus back on the Details button');
  });

  it('shows snapshot details without another request', async () => {
    const t = token();
    const el = mount({ src: `/snap/valid/listings.json?t=${t}`, locale: 'en' });
    const shown = await waitForCards(el, 3);
    (shown[1]!.querySelector('button') as HTMLButtonElement).click();
    const dialog = await dialogOf(el);
    await waitFor(() => dialog.open && dialog.querySelector('.facts'), 'details');
    includes(dialog.textContent, '1 week');
    includes(dialog.textContent, '7 days');
    equal((await server.log(t)).length, 1, 'the snapshot already holds every detail');
    const closeButton = dialog.querySelector('.sheet-head button') as HTMLButtonElement;
    closeButton.click();
    await waitFor(() => !dialog.open, 'the Close button closes the dialog');
  });

  it('closes the details dialog when the element leaves the page: put back (as frameworks move it), it is closed', async () => {
    const errors: unknown[] = [];
    const onError = (event: ErrorEvent | PromiseRejectionEvent) =>
      errors.push('reason' in event ? event.reason : event.message);
    window.addEventListener('error', onError);
    window.addEventListener('unhandledrejection', onError);
    try {
      const el = mount({ src: `/snap/valid/listings.json?t=${token()}`, locale: 'en' });
      const [first] = await waitForCards(el, 3);
      (first!.querySelector('button') as HTMLButtonElement).click();
      const dialog = await dialogOf(el);
      await waitFor(() => dialog.open && dialog.querySelector('.facts'), 'details');
      el.remove();
      document.body.append(el);
      equal(dialog.open, false, 'closed once put back');
      await waitFor(() => !dialog.querySelector('.facts'), 'its content gone');
      equal(root(el).activeElement, null, 'focus not taken back into the widget');
      const [, second] = await waitForCards(el, 3);
      (second!.querySelector('button') as HTMLButtonElement).click();
      await waitFor(() => dialog.open && dialog.querySelector('.facts'), 'details again');
      ok(dialog.matches(':modal'), 'opened again as a modal dialog');
      deepEqual(errors, [], 'no error in the page');
    } finally {
      window.removeEventListener('error', onError);
      window.removeEventListener('unhandledrejection', onError);
    }
  });

  it('fires storage-listings-load with the listings shown', async () => {
    const expected = await server.fixture('basic');
    let loads: CustomEvent<{ listings: { id: string }[] }>[] = [];
    const seen: Event[] = [];
    const onDocument = (event: Event) => seen.push(event);
    document.addEventListener('storage-listings-load', onDocument);
    try {
      const el = mount({ ...liveAttributes('basic', token()) }, (e) => (loads = record(e, 'storage-listings-load')));
      await waitForCards(el, 3);
      await waitFor(() => loads.length === 1, 'one load event');
      deepEqual(
        loads[0]?.detail.listings.map((l) => l.id),
        expected.map((l) => l.id),
      );
      ok(loads[0]?.bubbles && loads[0]?.composed, 'bubbles and composed');
      equal(seen.length, 1, 'reaches the document');
    } finally {
      document.removeEventListener('storage-listings-load', onDocument);
    }
  });
});
