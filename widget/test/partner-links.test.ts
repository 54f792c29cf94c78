// Rent links credit the partner: through the operator's click URL with the key's ref (live, from X-Partner-Ref) or the
// `partner-ref` (or the contract's `ref`) and `go-base` attributes (a snapshot), as real links with rel="sponsored" added to the partner's rel.
import { equal, ok } from './assert.ts';
import { FACILITY, PARTNER_REF } from './server/fixtures.js';
import { describe, it, liveAttributes, mount, part, server, token, waitForCards } from './helpers.ts';

const rentLinks = (cards: Element[]) =>
  cards
    .map((card) => part(card, 'rent-link') as HTMLAnchorElement | null)
    .filter((a): a is HTMLAnchorElement => a !== null);

describe('partner links', () => {
  it("live: go through the API server's click URL with the key's ref, rel sponsored beside the partner's", async () => {
    const t = token();
    const el = mount({ ...liveAttributes('partner', t), locale: 'en', rel: 'noopener external' });
    const links = rentLinks(await waitForCards(el, 3));
    const listings = await server.fixture('basic');
    ok(links.length > 0, 'some rent links');
    for (const link of links) {
      const code = listings.find(
        (l) => link.closest('[data-listing-id]')?.getAttribute('data-listing-id') === l.id,
      )!.code;
      const href = new URL(link.href);
      equal(href.pathname, `/api/partner/${t}/go/${FACILITY.id}/${encodeURIComponent(code)}`);
      equal(href.searchParams.get('ref'), PARTNER_REF);
      equal(link.getAttribute('rel'), 'noopener external sponsored');
      equal(link.target, '_blank');
    }
  });

  it("live without a ref (an older server): the listing's own rent_url, as before", async () => {
    const el = mount({ ...liveAttributes('basic', token()), locale: 'en' });
    const links = rentLinks(await waitForCards(el, 3));
    for (const link of links) ok(!link.href.includes('/go/'), link.href);
    equal(links[0]!.rel, 'noopener');
  });

  it('snapshot: through go-base with the partner-ref attribute, only when both are set', async () => {
    const t = token();
    const el = mount({
      src: `/snap/@${t}/valid/listings.json`,
      locale: 'en',
      'partner-ref': 'guide-krk',
      'go-base': 'https://operator.example/',
    });
    const links = rentLinks(await waitForCards(el, 3));
    ok(links.length > 0, 'some rent links');
    for (const link of links) {
      ok(link.href.startsWith(`https://operator.example/go/${FACILITY.id}/`), link.href);
      equal(new URL(link.href).searchParams.get('ref'), 'guide-krk');
      equal(link.rel, 'noopener sponsored');
    }
    const plain = mount({ src: `/snap/@${token()}/valid/listings.json`, locale: 'en', 'partner-ref': 'guide-krk' });
    for (const link of rentLinks(await waitForCards(plain, 3))) ok(!link.href.includes('/go/'), link.href);
  });

  it("snapshot: takes the contract's ref attribute too; partner-ref wins when both are set", async () => {
    const snapshot = { locale: 'en', 'go-base': 'https://operator.example' };
    const refOf = async (el: HTMLElement) => {
      const [link] = rentLinks(await waitForCards(el, 3));
      return link ? new URL(link.href).searchParams.get('ref') : undefined;
    };
    const byRef = mount({ ...snapshot, src: `/snap/@${token()}/valid/listings.json`, ref: 'guide-krk' });
    equal(await refOf(byRef), 'guide-krk');
    const both = { ...snapshot, src: `/snap/@${token()}/valid/listings.json`, ref: 'guide-krk', 'partner-ref': 'odra' };
    equal(await refOf(mount(both)), 'odra');
    // a ref set later re-renders the links
    const later = mount({ ...snapshot, src: `/snap/@${token()}/valid/listings.json` });
    equal(await refOf(later), null);
    later.setAttribute('ref', 'late-ref');
    await later.updateComplete;
    equal(await refOf(later), 'late-ref');
  });

  it('resolves a relative api-base or go-base against the page, for the click URL as for the list request', async () => {
    // As many "../" as the test page is deep: relative, yet at the server's root wherever the runner puts the page.
    const up = '../'.repeat(location.pathname.split('/').length - 2);
    const t = token();
    const live = mount({ ...liveAttributes('partner', t), 'api-base': `${up}api/partner/${t}`, locale: 'en' });
    const [link] = rentLinks(await waitForCards(live, 3));
    ok(link, 'a rent link');
    const code = new URL(link!.href).pathname.split('/').pop();
    const page = (path: string) => new URL(path, document.baseURI).href;
    equal(link!.href, page(`${up}api/partner/${t}/go/${FACILITY.id}/${code}?ref=${PARTNER_REF}`));

    const snapshot = mount({
      src: `/snap/@${token()}/valid/listings.json`,
      locale: 'en',
      'partner-ref': 'guide-krk',
      'go-base': `${up}operator/`,
    });
    const [snapLink] = rentLinks(await waitForCards(snapshot, 3));
    ok(snapLink, 'a rent link');
    const snapCode = new URL(snapLink!.href).pathname.split('/').pop();
    equal(snapLink!.href, page(`${up}operator/go/${FACILITY.id}/${snapCode}?ref=guide-krk`));
  });
});
