// The real `npm start` on free ports, on a database of its own, with Chromium to visit the pages it prints: started
// before an e2e file's tests and stopped after them, and a page visit that fails on any console error or exception.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page, Target } from 'puppeteer-core';
import { afterAll, beforeAll, expect } from 'vitest';
import type { DemoKeysFile } from '../../cli/demo-site.ts';
import { startDemo, type RunningDemo } from '../../demo/launch.ts';
import type { ListResponse } from '../../shared/listing.ts';
import { freePort, launchChromium } from '../../tools/launch.ts';
import { REPO } from './fixture.ts';

export interface DemoInBrowser {
  /** The demo's folder: its database, demo-keys.json and demo-operator.json. */
  tmp: string;
  demo: RunningDemo;
  browser: Browser;
  keysFile: DemoKeysFile;
  /** The demo's public URL, which its printed pages start with. */
  base: string;
  /**
   * Opens one of the demo's printed URLs in a fresh browser context, runs the checks, then asserts that no page the
   * context opened (popups included) logged a console error or threw.
   */
  onPage(
    label: string,
    check: (page: Page, context: BrowserContext) => Promise<void>,
    before?: (page: Page) => void | Promise<void>,
  ): Promise<void>;
  /** The API's list for a facility, with the demo's key for it. */
  apiList(facility: string): Promise<ListResponse>;
}

/**
 * Collects a page's console errors, failed loads and uncaught exceptions through a DevTools session of its own. Its
 * Runtime.enable and Log.enable replay what the page logged before: a popup starts running before the driver's page
 * object (and any listener on it) exists, so page.on('console') alone would miss a popup's first errors.
 */
async function collectErrors(target: Target, errors: string[]): Promise<void> {
  const session = await target.createCDPSession();
  session.on('Runtime.consoleAPICalled', (e) => {
    if (e.type === 'error') errors.push(`${target.url()}: ${e.args.map((a) => a.value ?? a.description).join(' ')}`);
  });
  session.on('Runtime.exceptionThrown', (e) =>
    errors.push(`pageerror: ${e.exceptionDetails.exception?.description ?? e.exceptionDetails.text}`),
  );
  session.on('Log.entryAdded', ({ entry }) => {
    if (entry.level === 'error' && entry.source !== 'worker')
      errors.push(`${entry.url ?? target.url()}: ${entry.text}`);
  });
  await Promise.all([session.send('Runtime.enable'), session.send('Log.enable')]);
}

/** `npm start` and Chromium for the file's tests (their own beforeAll and afterAll); the fields are set by then. */
export function useDemoInBrowser(): DemoInBrowser {
  const ctx = {} as DemoInBrowser;
  beforeAll(async () => {
    ctx.tmp = mkdtempSync(join(tmpdir(), 'listings-e2e-'));
    const port = await freePort();
    const panelPort = await freePort();
    // `npm start` exactly, on its own database: its keys, pages and snapshots land in tmp, so a demo running from data/
    // is left alone. HOST and PUBLIC_URL are cleared so the demo's URLs carry this port.
    ctx.demo = await startDemo('npm', ['start', '--', '--db', join(ctx.tmp, 'demo.db')], {
      cwd: REPO,
      env: { PORT: String(port), PANEL_PORT: String(panelPort), HOST: '', PUBLIC_URL: '', KEY_PREFIX: '' },
      timeoutMs: 60_000,
    });
    ctx.keysFile = JSON.parse(readFileSync(join(ctx.tmp, 'demo-keys.json'), 'utf8')) as DemoKeysFile;
    ctx.base = ctx.keysFile.public_url;
    ctx.browser = await launchChromium();
  }, 90_000);
  afterAll(async () => {
    await ctx.browser?.close();
    await ctx.demo?.stop();
    if (ctx.tmp) rmSync(ctx.tmp, { recursive: true, force: true });
  });

  ctx.onPage = async (label, check, before) => {
    const context = await ctx.browser.createBrowserContext();
    const errors: string[] = [];
    const watching = new Map<Target, Promise<void>>();
    const watch = (target: Target) => {
      if (!watching.has(target)) watching.set(target, collectErrors(target, errors));
      return watching.get(target)!;
    };
    // Every page of the context, popups included, as it appears (before any waitForTarget on it resolves).
    context.on('targetcreated', (target) => void (target.type() === 'page' && watch(target).catch(() => {})));
    try {
      const page = await context.newPage();
      await watch(page.target());
      await page.setViewport({ width: 1280, height: 900 });
      await before?.(page);
      await page.goto(ctx.demo.urls[label]!);
      await check(page, context);
      await Promise.all(watching.values()); // every page's replay is in
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  };

  ctx.apiList = async (facility) => {
    const key = ctx.keysFile.keys[facility];
    expect(key, `demo-keys.json has a key for ${facility}`).toBeTruthy();
    const res = await fetch(`${ctx.base}/external/listings`, { headers: { 'X-API-Key': key! } });
    expect(res.status).toBe(200);
    return (await res.json()) as ListResponse;
  };
  return ctx;
}
