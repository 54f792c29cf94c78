// Hostile data stays inert text, non-http(s) URLs never become links or images, double registration is harmless,
// and the widget works under a strict Content-Security-Policy (with Trusted Types).
import { equal, includes, ok } from './assert.ts';
import {
  cards,
  describe,
  framedWidgets,
  it,
  liveAttributes,
  mount,
  openPage,
  root,
  server,
  token,
  waitFor,
  waitForCards,
  dialogOf,
} from './helpers.ts';
import { StorageListings } from '../src/storage-listings.ts';

declare global {
  interface Window {
    __pwned?: boolean;
  }
}

describe('safety', () => {
  it('renders a hostile fixture as inert text: no img, no javascript: or data: links, nothing executed', async () => {
    const hostile = await server.fixture('hostile');
    const el = mount({ ...liveAttributes('hostile', token()), locale: 'en' });
    const [first, second] = await waitForCards(el, 2);
    const shadow = root(el);

    equal(first!.querySelector('.title')?.textContent, hostile[0]?.title, 'the markup is shown literally');
    equal(shadow.querySelectorAll('img').length, 0, 'no image from a javascript: URL');
    equal(shadow.querySelectorAll('a').length, 0, 'no link from javascript: or data: rent URLs');
    equal(second!.querySelectorAll('[part~="rent-link"]').length, 0);

    (first!.querySelector('button') as HTMLButtonElement).click();
    const dialog = await dialogOf(el);
    await waitFor(() => dialog.querySelector('.description'), 'the details');
    equal(dialog.querySelector('.description')?.textContent, hostile[0]?.description, 'description as text');
    equal(dialog.querySelectorAll('img, script, b').length, 0, 'no element made from data');
    await new Promise((resolve) => setTimeout(resolve, 200));
    equal(window.__pwned, undefined, 'no injected code ran');
  });

  it('registers once: loading the definition again does not throw', async () => {
    const first = customElements.get('storage-listings');
    equal(first, StorageListings);
    const again = new URL('../src/define.ts?second-copy', import.meta.url).href;
    const module = (await import(again)) as { StorageListings: typeof StorageListings };
    ok(module.StorageListings, 'the second copy evaluated');
    equal(customElements.get('storage-listings'), first, 'the first definition stays');
  });

  it("loads twice under the docs' CSP (two snippets, two versions, each with its Lit) with no error in the page", async () => {
    const frame = openPage(`/csp/readme.html?t=${token()}&bundle=1&twice=1`);
    const [widget] = await framedWidgets(frame, 1);
    const w = frame.contentWindow!;
    const second = await waitFor(() => (w as { __secondCopy?: string }).__secondCopy, 'the second copy');
    equal(second, 'ran', 'the second copy ran');
    await waitFor(() => root(widget!).querySelector('[part~="facility"]'), 'the facility header');
    equal(JSON.stringify(w.__errors), '[]', 'no error (a second "lit-html" policy is allowed)');
    equal(JSON.stringify(w.__violations), '[]', 'no CSP violations');
  });

  it('works under a strict CSP (script-src self, Trusted Types) with no violation', async () => {
    const frame = openPage(`/csp/page.html?t=${token()}`);
    const widgets = await framedWidgets(frame, 2);
    equal(cards(widgets[0]!).length, 3, 'verified snapshot (WebCrypto) under CSP');
    includes(cards(widgets[1]!)[0]?.textContent, '<img src=x', 'hostile text, literally');
    await new Promise((resolve) => setTimeout(resolve, 200));
    equal(JSON.stringify(frame.contentWindow?.__violations), '[]', 'no CSP violations');
    equal(frame.contentWindow?.__pwned, undefined);
  });
});
