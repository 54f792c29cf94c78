// The operator's panel in a real browser (Chromium or Firefox, the system's): a panel on a demo database with a publish
// target, a logged-in page at 390 px, and the checks every page gets (axe-core, no sideways overflow, components up).
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Browser, Page } from 'puppeteer-core';
import { afterAll, beforeAll, expect } from 'vitest';
import { PANEL_BUNDLE } from '../../server/panel/assets.ts';
import { startPanel, type RunningPanel } from '../../server/panel/server.ts';
import { generateSigningKey, loadSigningKey } from '../../server/snapshots/format/keygen.ts';
import { folderTarget } from '../../server/snapshots/targets/folder.ts';
import type { Store } from '../../server/store/store.ts';
import { launchChromium, launchFirefox } from '../../tools/launch.ts';
import { OPERATOR, PASSWORD, panelStore } from './panel.ts';
import { tempDir } from './fixture.ts';

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export type BrowserName = 'chromium' | 'firefox';
/** Both, unless BROWSERS names some (as for the widget's browser tests). */
export const PANEL_BROWSERS = (process.env.BROWSERS ?? 'chromium,firefox')
  .split(',')
  .filter((b): b is BrowserName => b === 'chromium' || b === 'firefox');

export interface PanelInBrowser {
  store: Store;
  /** The SQLite file, for an API handler over the same data. */
  file: string;
  /** Where "publish now" writes. */
  published: string;
  panel: RunningPanel;
  browser: Browser;
  page: Page;
  close(): Promise<void>;
}

/** `publishTarget: false`: a panel started without --publish-to, whose Snapshots tab says how to set one. */
export interface PanelInBrowserOptions {
  publishTarget?: boolean;
}

export async function panelInBrowser(
  name: BrowserName,
  { publishTarget = true }: PanelInBrowserOptions = {},
): Promise<PanelInBrowser> {
  // The pages load the built components: without them every check here would pass on the bare HTML.
  if (!existsSync(PANEL_BUNDLE)) throw new Error(`${PANEL_BUNDLE} is missing: run npm run build (npm test does)`);
  const { file, store, cleanup } = await panelStore();
  const { dir, cleanup: removeDir } = tempDir();
  const key = await loadSigningKey((await generateSigningKey(join(dir, 'secrets'))).private_key);
  const published = join(dir, 'public');
  const panel = await startPanel({
    store,
    host: '127.0.0.1',
    port: 0,
    publicUrl: 'https://listings.example.com',
    keyPrefix: 'svc',
    snapshots: publishTarget ? { target: folderTarget(published), key, ttlSeconds: 3600 } : undefined,
  });
  const browser = await (name === 'firefox' ? launchFirefox() : launchChromium());
  const page = await browser.newPage();
  await page.setViewport({ width: 390, height: 844 });
  return {
    store,
    file,
    published,
    panel,
    browser,
    page,
    close: async () => {
      await browser.close();
      await panel.close();
      await cleanup();
      removeDir();
    },
  };
}

export interface BrowserPanel extends PanelInBrowser {
  /** Opens a path of the panel and runs `checkPage` on it. */
  go(path: string, what: string): Promise<void>;
}

/**
 * A panel in browser `name` for the describe block it is called in (its own beforeAll and afterAll), logged in with
 * the keyboard first when `logIn`; the fields are filled in before the block's first test.
 */
export function usePanelInBrowser(
  name: BrowserName,
  opts: { logIn?: boolean } & PanelInBrowserOptions = {},
): BrowserPanel {
  const ctx = {} as BrowserPanel;
  beforeAll(async () => {
    Object.assign(ctx, await panelInBrowser(name, opts));
    if (opts.logIn) await logInWithKeyboard(ctx.page, ctx.panel.url);
  }, 60_000);
  afterAll(() => ctx.close?.());
  ctx.go = async (path, what) => {
    await ctx.page.goto(`${ctx.panel.url}${path}`);
    await checkPage(ctx.page, what);
  };
  return ctx;
}

/**
 * Every panel-* element on the page is a defined component that has rendered. A page found by a selector may still be
 * parsing, its module script not yet run: each element's definition is waited for, 10 s at most.
 */
export async function componentsReady(page: Page): Promise<void> {
  const undefinedOnes = await page.evaluate(async () => {
    const ours = [...document.querySelectorAll('*')].filter((e) => e.localName.startsWith('panel-'));
    const deadline = new Promise((resolve) => setTimeout(resolve, 10_000));
    await Promise.race([Promise.all(ours.map((e) => customElements.whenDefined(e.localName))), deadline]);
    await Promise.all(ours.map((e) => (e as unknown as { updateComplete?: Promise<unknown> }).updateComplete));
    return ours.filter((e) => !e.matches(':defined')).map((e) => e.localName);
  });
  expect(undefinedOnes, 'components not upgraded').toEqual([]);
}

/** axe-core finds nothing and nothing overflows sideways, with the components upgraded. */
export async function checkPage(page: Page, what: string): Promise<void> {
  await componentsReady(page);
  await page.evaluate(AXE);
  const found = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(c: Document): Promise<{ violations: { id: string }[] }> } }).axe;
    return (await axe.run(document)).violations.map((v) => v.id);
  });
  expect(found, `axe violations on ${what}`).toEqual([]);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow, `sideways overflow on ${what}`).toBeLessThanOrEqual(0);
}

/** Logs in with the keyboard alone: the email, Tab, the password, Enter. */
export async function logInWithKeyboard(page: Page, url: string): Promise<void> {
  await page.goto(`${url}/login`);
  await page.focus('#email');
  await page.keyboard.type(OPERATOR);
  await page.keyboard.press('Tab');
  await page.keyboard.type(PASSWORD);
  await Promise.all([page.waitForNavigation(), page.keyboard.press('Enter')]);
}
