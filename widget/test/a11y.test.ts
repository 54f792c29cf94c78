// axe-core in the page: no violations in the list, the open details dialog, the error state, on light and dark pages.
import type { AxeResults, RunOptions } from 'axe-core';
import { deepEqual, equal, ok } from './assert.ts';
import { describe, it, liveAttributes, mount, part, root, token, waitFor, waitForCards } from './helpers.ts';

declare global {
  interface Window {
    axe?: { run(context: Element, options: RunOptions): Promise<AxeResults> };
  }
}

async function axe(): Promise<NonNullable<Window['axe']>> {
  if (!window.axe) {
    await new Promise<void>((resolve, reject) => {
      const script = document.createElement('script');
      script.src = '/node_modules/axe-core/axe.min.js';
      script.onload = () => resolve();
      script.onerror = () => reject(new Error('axe-core did not load'));
      document.head.append(script);
    });
  }
  return window.axe as NonNullable<Window['axe']>;
}

/** Runs axe on the element (its shadow root included) and fails with a readable list of what it found. */
async function assertAccessible(element: Element, what: string, hasText = true): Promise<void> {
  const results = await (await axe()).run(element, { resultTypes: ['violations'] });
  const found = results.violations.map((v) => `${v.id} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
  equal(found.join('; '), '', `axe violations in ${what}`);
  ok(results.passes.length > 0, `axe checked ${what}`);
  if (hasText)
    ok(
      results.passes.some((rule) => rule.id === 'color-contrast'),
      `axe checked the contrast of ${what}`,
    );
}

function darkPage(): () => void {
  const html = document.documentElement;
  const before = [html.style.colorScheme, document.body.style.background, document.body.style.color];
  html.style.colorScheme = 'dark';
  document.body.style.background = '#0d1117';
  document.body.style.color = '#e6edf3';
  return () => {
    [html.style.colorScheme, document.body.style.background, document.body.style.color] = before as [
      string,
      string,
      string,
    ];
  };
}

describe('accessibility (axe-core)', () => {
  it('fits a host page with an h1: card titles are level 2 by default, no violation at all (heading-order included)', async () => {
    const page = document.createElement('main');
    page.innerHTML = '<h1>Storage in Wroclaw</h1><p>Units near you.</p>';
    document.body.append(page);
    try {
      const el = mount({ ...liveAttributes('basic', token()), locale: 'en' }, undefined, page);
      const [first] = await waitForCards(el, 3);
      equal(first!.querySelector('[role="heading"]')?.getAttribute('aria-level'), '2');
      const results = await (
        await axe()
      ).run(page, { resultTypes: ['violations'], rules: { 'heading-order': { enabled: true } } });
      deepEqual(
        results.violations.map((v) => v.id),
        [],
        'axe violations on the host page',
      );
      ok(
        results.passes.some((rule) => rule.id === 'heading-order'),
        'axe checked the heading order',
      );
    } finally {
      page.remove();
    }
  });

  it('lets heading-level override the default', async () => {
    const el = mount({ ...liveAttributes('basic', token()), 'heading-level': '4' });
    const [first] = await waitForCards(el, 3);
    equal(first!.querySelector('[role="heading"]')?.getAttribute('aria-level'), '4');
  });

  it('has no violations in the list view', async () => {
    const el = mount({ ...liveAttributes('basic', token()), locale: 'en', 'show-net': true });
    await waitForCards(el, 3);
    await assertAccessible(el, 'the list');
  });

  it('has no violations with the details dialog open', async () => {
    const el = mount({ ...liveAttributes('basic', token()), locale: 'en' });
    const [first] = await waitForCards(el, 3);
    (first!.querySelector('button') as HTMLButtonElement).click();
    await waitFor(() => root(el).querySelector('dialog[open] .gallery img'), 'the open dialog');
    await assertAccessible(el, 'the details dialog');
  });

  it('has no violations with promotions, features, the facility header and the move-in total, light and dark', async () => {
    const el = mount({ ...liveAttributes('terms', token()), locale: 'en', 'show-facility': true, 'show-net': true });
    const [first] = await waitForCards(el, 3);
    await waitFor(() => part(root(el), 'promotion') && part(root(el), 'facility'), 'the promotion and the header');
    await assertAccessible(el, 'the list with promotions and the facility header');
    (first!.querySelector('[data-action="details"]') as HTMLButtonElement).click();
    await waitFor(() => root(el).querySelector('dialog[open] [part~="move-in"]'), 'the dialog with move-in');
    await assertAccessible(el, 'the details dialog with the schedule and move-in');
    const restore = darkPage();
    try {
      await assertAccessible(el, 'the details dialog with move-in on a dark page');
    } finally {
      restore();
    }
  });

  it('has no violations on a dark page, in the list and the error state', async () => {
    const restore = darkPage();
    try {
      const el = mount({ ...liveAttributes('basic', token()), locale: 'en' });
      await waitForCards(el, 3);
      const cardBackground = getComputedStyle(root(el).querySelector('.card')!).backgroundColor;
      equal(cardBackground, 'rgb(21, 27, 35)', 'the dark palette follows the page color-scheme');
      await assertAccessible(el, 'the list on a dark page');
      const failing = mount({ 'api-key': 'svc_live_wrong', 'api-base': `/api/basic/${token()}`, locale: 'en' });
      await waitFor(() => part(root(failing), 'error'), 'the error state');
      await assertAccessible(failing, 'the error state on a dark page');
    } finally {
      restore();
    }
  });

  it('has no violations in the loading skeleton and the 429 state', async () => {
    const loading = mount({ ...liveAttributes('slow', token()), locale: 'en' });
    await waitFor(() => root(loading).querySelector('.skeleton'), 'the skeleton');
    await assertAccessible(loading, 'the skeleton', false); // placeholders only: no visible text
    const limited = mount({ ...liveAttributes('ratelimited', token()), locale: 'en' });
    await waitFor(() => part(root(limited), 'error')?.querySelector('button'), 'the Retry button');
    await assertAccessible(limited, 'the 429 state');
  });
});
