// Loading, empty and error states: skeleton without layout jump, "No units available", 401, 429, network, config.
import { translator } from '../src/i18n.ts';
import { deepEqual, equal, includes, ok } from './assert.ts';
import {
  API_KEY,
  cards,
  describe,
  frames,
  it,
  liveAttributes,
  mount,
  part,
  record,
  root,
  server,
  token,
  waitFor,
  waitForCards,
  dialogOf,
} from './helpers.ts';

type ErrorDetail = { status: number; code: string };

const retryButton = (el: HTMLElement) => part(root(el), 'error')?.querySelector('button') ?? null;

describe('states', () => {
  it('shows a skeleton of the same size as the cards while loading, then the cards', async () => {
    const el = mount({ ...liveAttributes('slow', token()), locale: 'en' });
    el.style.width = '900px';
    const skeleton = await waitFor(() => root(el).querySelector<HTMLElement>('.skeleton'), 'a skeleton card');
    equal(root(el).querySelectorAll('.skeleton').length, 3, 'three placeholders by default');
    equal(cards(el).length, 0);
    const status = root(el).querySelector('[role="status"]');
    includes(status?.textContent, 'Loading');
    await frames();
    const skeletonBox = skeleton.getBoundingClientRect();

    const [card] = await waitForCards(el, 3);
    await frames(); // before its first rendering update, a card measures its contain-intrinsic-size (27rem)
    const cardBox = card!.getBoundingClientRect();
    ok(Math.abs(cardBox.height - skeletonBox.height) < 1, `same height (${skeletonBox.height} -> ${cardBox.height})`);
    ok(Math.abs(cardBox.width - skeletonBox.width) < 1, `same width (${skeletonBox.width} -> ${cardBox.width})`);
    equal(root(el).querySelectorAll('.skeleton').length, 0, 'skeleton gone');
    includes(status?.textContent, '3 units shown');
  });

  it('says "No units available" when there are none', async () => {
    let loads: CustomEvent<{ listings: unknown[] }>[] = [];
    const el = mount(
      { ...liveAttributes('empty', token()), locale: 'en' },
      (e) => (loads = record(e, 'storage-listings-load')),
    );
    const empty = await waitFor(() => part(root(el), 'empty'), 'the empty state');
    equal(empty.textContent?.trim(), 'No units available');
    equal(cards(el).length, 0);
    equal(loads[0]?.detail.listings.length, 0, 'the load event still fires');
  });

  it('tells the site owner about a missing, invalid or revoked key (401), without a retry', async () => {
    let errors: CustomEvent<ErrorDetail>[] = [];
    const el = mount(
      { 'api-key': 'svc_live_NotAValidKey000000000000000000', 'api-base': `/api/basic/${token()}`, locale: 'en' },
      (e) => (errors = record(e, 'storage-listings-error')),
    );
    const box = await waitFor(() => part(root(el), 'error'), 'the error state');
    deepEqual(
      errors.map((e) => e.detail),
      [{ status: 401, code: 'invalid_api_key' }],
    );
    includes(box.textContent, 'api-key', 'names the attribute to fix');
    includes(box.textContent, 'invalid_api_key');
    equal(retryButton(el), null, 'retrying cannot fix a key');
    equal(cards(el).length, 0);
  });

  it('tells the site owner about a key restricted to other sites (403), with its code, without a retry', async () => {
    let errors: CustomEvent<ErrorDetail>[] = [];
    const el = mount(
      { ...liveAttributes('origin', token()), locale: 'en' },
      (e) => (errors = record(e, 'storage-listings-error')),
    );
    const box = await waitFor(() => part(root(el), 'error'), 'the error state');
    deepEqual(
      errors.map((e) => e.detail),
      [{ status: 403, code: 'origin_not_allowed' }],
    );
    equal(box.querySelector('p')?.textContent, translator('en', undefined)('errorOrigin'), "the site owner's message");
    includes(box.textContent, 'origin_not_allowed');
    equal(retryButton(el), null, 'retrying cannot fix where the key may be used');
  });

  it('honours Retry-After on a 429: Retry stays disabled for that long, then loads', async () => {
    const t = token();
    let errors: CustomEvent<ErrorDetail>[] = [];
    const el = mount(
      { ...liveAttributes('ratelimited', t), locale: 'en' },
      (e) => (errors = record(e, 'storage-listings-error')),
    );
    const button = await waitFor(() => retryButton(el), 'the Retry button');
    const shownAt = Date.now();
    deepEqual(
      errors.map((e) => e.detail),
      [{ status: 429, code: 'rate_limited' }],
    );
    includes(part(root(el), 'error')?.textContent, '1 s', 'says how long to wait');
    ok(button.disabled, 'disabled during Retry-After');
    await server.heal(t);
    await waitFor(() => !retryButton(el)?.disabled, 'Retry enabled', 3000);
    ok(Date.now() - shownAt >= 800, 'not before Retry-After (1 s) has passed');
    retryButton(el)?.click();
    await waitForCards(el, 3);
    equal((await server.log(t)).length, 2, 'one retry request');
  });

  it('offers Retry after a network failure, and recovers', async () => {
    const t = token();
    let errors: CustomEvent<ErrorDetail>[] = [];
    const el = mount(
      { ...liveAttributes('down', t), locale: 'en' },
      (e) => (errors = record(e, 'storage-listings-error')),
    );
    const button = await waitFor(() => retryButton(el), 'the Retry button');
    deepEqual(
      errors.map((e) => e.detail),
      [{ status: 0, code: 'network_error' }],
    );
    equal(button.disabled, false);
    await server.heal(t);
    button.click();
    await waitForCards(el, 3);
    equal(part(root(el), 'error'), null, 'error state gone');
  });

  it("keeps the error box's contents at their own size at the top of the loading state's reserved height", async () => {
    const el = mount({ ...liveAttributes('down', token()), locale: 'en' });
    const button = await waitFor(() => retryButton(el), 'the Retry button');
    await frames();
    const box = part(root(el), 'error')!.getBoundingClientRect();
    ok(box.height > 200, `the reserved height is kept (${box.height} px)`);
    const { height, bottom } = button.getBoundingClientRect();
    ok(height < 64, `the button is one line high (${height} px)`);
    ok(bottom < box.top + box.height / 2, 'message, code and button stay together at the top');
  });

  it('reports a missing configuration instead of throwing', async () => {
    let errors: CustomEvent<ErrorDetail>[] = [];
    const el = mount({ 'api-key': API_KEY }, (e) => (errors = record(e, 'storage-listings-error')));
    await waitFor(() => part(root(el), 'error'), 'the error state');
    deepEqual(
      errors.map((e) => e.detail),
      [{ status: 0, code: 'invalid_config' }],
    );
  });

  it('shows a detail request failure inside the dialog and fires an error event', async () => {
    const t = token();
    let errors: CustomEvent<ErrorDetail>[] = [];
    const el = mount(
      { ...liveAttributes('basic', t), locale: 'en' },
      (e) => (errors = record(e, 'storage-listings-error')),
    );
    const [first] = await waitForCards(el, 3);
    await server.break(t);
    (first!.querySelector('button') as HTMLButtonElement).click();
    const dialog = await dialogOf(el);
    await waitFor(() => part(dialog, 'error'), 'the error inside the dialog');
    deepEqual(
      errors.map((e) => e.detail),
      [{ status: 0, code: 'network_error' }],
    );
    equal(cards(el).length, 3, 'the list stays');
  });
});
