// structured-data: one lean schema.org JSON-LD script in the light DOM, an Offer per listing, rewritten on refresh, also
// under the README's Content-Security-Policy with Trusted Types enforced.
import { leanOfferOf } from '../../shared/structured-data-lean.ts';
import { deepEqual, equal } from './assert.ts';
import {
  describe,
  frames,
  framedWidgets,
  it,
  liveAttributes,
  mount,
  openPage,
  part,
  root,
  record,
  server,
  setClock,
  token,
  waitFor,
  waitForCards,
} from './helpers.ts';

const scripts = (el: HTMLElement) => [
  ...el.querySelectorAll<HTMLScriptElement>(':scope > script[type="application/ld+json"]'),
];
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const jsonLd = (el: HTMLElement): any => JSON.parse(scripts(el)[0]?.textContent ?? 'null');

describe('structured data', () => {
  it('writes nothing unless asked', async () => {
    const el = mount(liveAttributes('basic', token()));
    await waitForCards(el, 3);
    equal(scripts(el).length, 0);
  });

  it('puts one SelfStorage with an Offer per listing into the light DOM, and replaces it on refresh', async () => {
    const t = token();
    const el = mount({ ...liveAttributes('basic', t), 'structured-data': true, refresh: '1', locale: 'en' });
    const [first] = await waitForCards(el, 3);
    const listings = await server.fixture('basic');
    await waitFor(() => jsonLd(el)?.makesOffer?.length, 'the JSON-LD with its offers, from its chunk');
    const ld = jsonLd(el);
    equal(ld['@type'], 'SelfStorage');
    equal(ld.name, 'SafeBox Wroclaw Centrum');
    deepEqual(ld.makesOffer, listings.map(leanOfferOf), 'one lean Offer per listing');
    equal(ld.makesOffer[0].price, (listings[0]!.price.gross / 100).toFixed(2), 'a decimal in major units');

    const [script] = scripts(el);
    script!.textContent = ''; // so that the rewrite shows
    await server.bump(t);
    await waitFor(() => part(first!, 'free-units')?.textContent?.trim() === '2 units left', 'the refresh');
    await waitFor(() => script!.textContent, 'the rewritten JSON-LD');
    deepEqual(scripts(el), [script], 'rewritten in place, not appended');
    deepEqual(jsonLd(el).makesOffer, (await server.fixture('basic')).map(leanOfferOf));
    el.removeAttribute('structured-data');
    await el.updateComplete;
    equal(scripts(el).length, 0, 'removed when switched off');
  });

  it('removes it once a refresh is refused (a revoked key): the offers go with the cards', async () => {
    const t = token();
    const el = mount({ ...liveAttributes('basic', t), 'structured-data': true, refresh: '1', locale: 'en' });
    await waitForCards(el, 3);
    await waitFor(() => jsonLd(el)?.makesOffer?.length, 'the JSON-LD with its offers');
    await server.revoke(t);
    await waitFor(() => part(root(el), 'error'), 'the 401 state', 4000);
    await frames();
    equal(scripts(el).length, 0, 'no JSON-LD beside the error state');
  });

  it('removes it when a verified snapshot on screen expires', async () => {
    const snapshot = (await (await fetch('/snap/valid/listings.json')).json()) as { expires_at: string };
    setClock(Date.parse(snapshot.expires_at) - 1500);
    const attributes = { src: `/snap/@${token()}/valid/listings.json`, 'keys-url': '/snap/keys.json' };
    const el = mount({ ...attributes, 'structured-data': true, locale: 'en' });
    await waitFor(() => jsonLd(el)?.makesOffer?.length, 'the JSON-LD with its offers');
    await waitFor(() => part(root(el), 'error'), 'the expired state', 5000);
    await frames();
    equal(scripts(el).length, 0, 'no JSON-LD beside the expired state');
  });

  it('writes none for a refused snapshot, and writes it once a source is shown', async () => {
    let errors: CustomEvent[] = [];
    const el = mount(
      { src: `/snap/@${token()}/expired/listings.json`, 'keys-url': '/snap/keys.json', 'structured-data': true },
      (e) => (errors = record(e, 'storage-listings-error')),
    );
    await waitFor(() => errors.length, 'the refusal');
    await frames();
    equal(scripts(el).length, 0, 'nothing for an expired file');
    el.setAttribute('src', `/snap/@${token()}/valid/listings.json`);
    await waitFor(() => jsonLd(el)?.makesOffer?.length === 3, 'the JSON-LD of the valid file');
  });

  it('writes none for a withdrawn facility, and removes the one its listings had', async () => {
    const t = token();
    const el = mount({ src: `/snap/@${t}/valid/listings.json`, 'structured-data': true, locale: 'en' });
    await waitFor(() => jsonLd(el)?.makesOffer?.length === 3, 'the JSON-LD of the listings');
    el.setAttribute('src', `/snap/@${t}/withdrawn/listings.json`);
    await waitFor(() => part(root(el), 'withdrawn'), 'the "no longer listed" state');
    await frames(); // its chunk has come already: a write would be done by now
    equal(scripts(el).length, 0, 'no nameless SelfStorage for a tombstone');
  });

  it('writes none while no listing is shown', async () => {
    const shown = mount({ ...liveAttributes('basic', token()), 'structured-data': true });
    await waitFor(() => jsonLd(shown)?.makesOffer?.length, 'the chunk, by a JSON-LD of listings');
    const el = mount({ ...liveAttributes('empty', token()), 'structured-data': true, locale: 'en' });
    await waitFor(() => part(root(el), 'empty'), 'the "no units available" state');
    await frames();
    equal(scripts(el).length, 0, 'no SelfStorage without offers');
  });

  it("gives each Offer the card's rent URL: resolved against the data's URL, none where it is not http(s)", async () => {
    const t = token();
    const el = mount({ ...liveAttributes('relative', t), 'structured-data': true, locale: 'en' });
    const [card] = await waitForCards(el, 1);
    await waitFor(() => jsonLd(el)?.makesOffer?.length, 'the JSON-LD with its offer');
    const link = part(card!, 'rent-link') as HTMLAnchorElement;
    equal(link.href, new URL(`/api/relative/rent/R-01`, location.href).href, 'the card resolves it against api-base');
    equal(jsonLd(el).makesOffer[0].url, link.href, 'the Offer has the same absolute URL');

    const hostile = mount({ ...liveAttributes('hostile', token()), 'structured-data': true, locale: 'en' });
    await waitFor(() => jsonLd(hostile)?.makesOffer?.length === 2, 'the JSON-LD with its offers');
    deepEqual(
      jsonLd(hostile).makesOffer.map((o: { url?: string }) => o.url),
      [undefined, undefined],
      'no javascript: or data: URL',
    );
  });

  it("writes it under the README's CSP (require-trusted-types-for 'script'), with no violation or error", async () => {
    const frame = openPage(`/csp/readme.html?t=${token()}`);
    const [el] = await framedWidgets(frame, 1);
    await waitFor(
      () => jsonLd(el!)?.makesOffer?.length || frame.contentWindow?.__errors?.length,
      'the JSON-LD with its offers (or an error)',
    );
    deepEqual(frame.contentWindow?.__errors, [], 'nothing thrown into the page');
    equal(scripts(el!).length, 1);
    const ld = jsonLd(el!);
    equal(ld['@type'], 'SelfStorage');
    deepEqual(ld.makesOffer, (await server.fixture('basic')).map(leanOfferOf));
    equal(part(root(el!), 'error'), null, 'no error state');
    await frames(); // a violation is reported in a task of its own
    deepEqual(frame.contentWindow?.__violations, [], 'no CSP violation');
  });
});
