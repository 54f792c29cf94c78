// Fitting the host page: its language, and content inside the element that shows wherever the widget does not run.
import { equal, ok } from './assert.ts';
import { describe, it, liveAttributes, mount, part, token, waitFor, waitForCards } from './helpers.ts';

describe('host page', () => {
  it('follows the closest lang around it when locale is not set, and locale still wins', async () => {
    const section = document.createElement('section');
    section.lang = 'de';
    document.body.append(section);
    try {
      const german = mount(liveAttributes('basic', token()), undefined, section);
      const [card] = await waitForCards(german, 3);
      equal(part(card!, 'free-units')?.textContent?.trim(), 'Noch 3 Einheiten frei');
      const english = mount({ ...liveAttributes('basic', token()), locale: 'en' }, undefined, section);
      const [other] = await waitForCards(english, 3);
      equal(part(other!, 'free-units')?.textContent?.trim(), '3 units left');
    } finally {
      section.remove();
    }
  });

  it('shows the content inside the element where scripts do not run', async () => {
    const frame = document.createElement('iframe');
    frame.sandbox.add('allow-same-origin'); // same origin to look inside; no allow-scripts: no module runs
    frame.srcdoc = `<!doctype html><html lang="en"><script type="module" src="/dist/widget/storage-listings.js"></script>
      <storage-listings api-key="svc_live_x" api-base="/api"><a href="https://rent.example.com/wro-1">Our units and prices</a></storage-listings>`;
    document.body.append(frame);
    try {
      const link = await waitFor(() => frame.contentDocument?.querySelector('storage-listings a'), 'the fallback link');
      ok(link.getClientRects().length > 0 && link.getBoundingClientRect().width > 0, 'the fallback link is laid out');
      equal(frame.contentWindow?.customElements.get('storage-listings'), undefined, 'the widget did not run');
    } finally {
      frame.remove();
    }
  });
});
