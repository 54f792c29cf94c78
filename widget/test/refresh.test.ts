// refresh="N": conditional re-fetches through the browser's HTTP cache; nothing re-renders on a 304, changes in place.
import { deepEqual, equal, ok } from './assert.ts';
import {
  cards,
  describe,
  hasHttpCache,
  it,
  liveAttributes,
  mount,
  part,
  record,
  root,
  server,
  sleep,
  token,
  waitFor,
  waitForCards,
  type LogEntry,
} from './helpers.ts';

/** Records every skeleton card ever added to the widget's shadow root. */
function watchSkeletons(el: HTMLElement): Element[] {
  const seen: Element[] = [];
  new MutationObserver((records) => {
    for (const r of records) {
      for (const node of r.addedNodes) {
        if (node instanceof Element && (node.matches('.skeleton') || node.querySelector('.skeleton'))) seen.push(node);
      }
    }
  }).observe(root(el), { childList: true, subtree: true });
  return seen;
}

async function waitForLog(t: string, count: number): Promise<LogEntry[]> {
  for (let tries = 0; tries < 200; tries += 1) {
    const log = await server.log(t);
    if (log.length >= count) return log;
    await sleep(25);
  }
  throw new Error(`timed out waiting for ${count} requests`);
}

/** A widget refreshing the `basic` scenario every second, once its cards show; its load events and skeletons recorded. */
async function refreshingBasic() {
  const t = token();
  let loads: CustomEvent[] = [];
  const el = mount(
    { ...liveAttributes('basic', t), refresh: '1', locale: 'en' },
    (e) => (loads = record(e, 'storage-listings-load')),
  );
  const [first] = await waitForCards(el, 3);
  const skeletons = watchSkeletons(el);
  return { t, el, first, loads, skeletons };
}

describe('refresh', () => {
  it('revalidates with If-None-Match, gets a 304 (or, with no HTTP cache, the same ETag) and leaves the DOM alone', async () => {
    const { t, el, first, loads, skeletons } = await refreshingBasic();

    const [initial, revalidation] = await waitForLog(t, 2);
    equal(initial?.status, 200);
    ok(initial?.ifNoneMatch === null, 'the first request is unconditional');
    if (await hasHttpCache()) {
      ok(revalidation?.ifNoneMatch, 'the refresh sends If-None-Match');
      equal(revalidation?.status, 304, 'and gets a 304');
    } else {
      // Nothing to revalidate against: a full 200 of the same version, which the widget recognises by its ETag.
      equal(revalidation?.ifNoneMatch, null, 'no If-None-Match without an HTTP cache');
      equal(revalidation?.status, 200);
    }
    await waitForLog(t, 3); // the next refresh has started: the answer has been handled

    equal(cards(el)[0], first, 'the very same card node');
    equal(loads.length, 1, 'no second load event');
    equal(skeletons.length, 0, 'no skeleton flash');
  });

  it('updates changed listings in place, without a skeleton', async () => {
    const { t, el, first, loads, skeletons } = await refreshingBasic();
    equal(part(first!, 'free-units')?.textContent?.trim(), '3 units left');

    await server.bump(t); // one more unit of the first listing is rented
    await waitFor(() => part(first!, 'free-units')?.textContent?.trim() === '2 units left', 'the new free units', 4000);
    equal(cards(el)[0], first, 'updated in place');
    equal(loads.length, 2, 'a load event for the change');
    equal(skeletons.length, 0, 'no skeleton flash');
    const statuses = (await server.log(t)).map((e) => e.status);
    equal(statuses.at(-1), 200);
  });

  it('keeps the listings on screen when a refresh fails on the network', async () => {
    const t = token();
    let errors: CustomEvent<{ status: number; code: string }>[] = [];
    const el = mount(
      { ...liveAttributes('basic', t), refresh: '1', locale: 'en' },
      (e) => (errors = record(e, 'storage-listings-error')),
    );
    const [first] = await waitForCards(el, 3);
    await server.break(t);
    await waitFor(() => errors.length > 0, 'an error event', 4000);
    deepEqual(errors[0]?.detail, { status: 0, code: 'network_error' });
    equal(cards(el)[0], first, 'the listings stay');
    equal(part(root(el), 'error'), null, 'no error state over good data');
  });
});
