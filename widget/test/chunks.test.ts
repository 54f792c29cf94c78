// What a visitor may never open comes as chunks of the built module (npm run build), from its own origin and under the
// CSP the README recommends, in every engine.
import { equal, ok } from './assert.ts';
import { describe, framedWidgets, it, openPage, record, root, token, waitFor } from './helpers.ts';

const CHUNKS = ['details-dialog', 'facility-header', 'structured-data'];

describe('chunks on demand', () => {
  it('loads the header, the JSON-LD and the details dialog as same-origin chunks under the README CSP', async () => {
    const frame = openPage(`/csp/readme.html?t=${token()}&bundle=1`);
    const [widget] = await framedWidgets(frame, 1);
    const shadow = root(widget!);
    const w = frame.contentWindow!;
    const loaded = () => w.performance.getEntriesByType('resource').map((e) => new URL(e.name));
    const chunk = (name: string) => loaded().find((url) => url.pathname.startsWith(`/dist/widget/chunks/${name}-`));
    ok(!chunk('details-dialog'), 'the dialog is not loaded before a visitor opens it');

    await waitFor(() => shadow.querySelector('[part~="facility"]'), 'the facility header');
    await waitFor(() => widget!.querySelector('script[type="application/ld+json"]')?.textContent, 'the JSON-LD');
    shadow.querySelector<HTMLElement>('[data-listing-id] [data-action="details"]')!.click();
    const dialog = await waitFor(() => shadow.querySelector('dialog[open]'), 'the details dialog');
    ok((dialog.textContent ?? '').trim().length > 0, 'the dialog shows the listing');
    const sheet = dialog.querySelector('.sheet');
    equal(sheet && w.getComputedStyle(sheet).display, 'grid', "the dialog's stylesheet came with its chunk");

    for (const name of CHUNKS) {
      ok(chunk(name), `${name} came as a chunk`);
      equal(chunk(name)!.origin, w.location.origin, `${name} from the module's origin`);
    }
    equal(JSON.stringify(w.__violations), '[]', 'no CSP violations');
    equal(JSON.stringify(w.__errors), '[]', 'no errors');
  });

  it('runs one copy of the module named with a query string (?ver=6.4.2): its chunks import the core, not the entry', async () => {
    const frame = openPage(`/csp/readme.html?t=${token()}&bundle=1&ver=6.4.2`);
    const [widget] = await framedWidgets(frame, 1);
    const errors = record(widget!, 'storage-listings-error');
    const shadow = root(widget!);
    const w = frame.contentWindow!;
    await waitFor(() => shadow.querySelector('[part~="facility"]'), 'the facility header');
    shadow.querySelector<HTMLElement>('[data-listing-id] [data-action="details"]')!.click();
    await waitFor(() => shadow.querySelector('dialog[open]'), 'the details dialog');

    const entries = w.performance
      .getEntriesByType('resource')
      .map((e) => new URL(e.name))
      .filter((url) => url.pathname === '/dist/widget/storage-listings.js');
    equal(entries.map((url) => url.search).join(' '), '?ver=6.4.2', 'the module is fetched once, as the page names it');
    equal(JSON.stringify(errors.map((e) => e.detail)), '[]', 'no error event');
    equal(JSON.stringify(w.__violations), '[]', 'no CSP violations');
    equal(JSON.stringify(w.__errors), '[]', 'no errors');
  });
});
