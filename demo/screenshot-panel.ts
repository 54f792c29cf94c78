// The panel's pages for docs/panel.md, photographed in a browser logged in as the demo operator: each shot opens its
// page (or does what leads to it) and is photographed whole once the page has settled.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'puppeteer-core';
import { REPO_ROOT } from '../server/repo.ts';
import type { Store } from '../server/store/store.ts';
import { settled, watchPage, type Watched } from './page-settled.ts';
import { recordDemoClicks } from './referral-clicks.ts';

export const DESKTOP = 1280;
export const PHONE = 360;

export interface PanelShot {
  /** docs/screenshot-panel-NAME.png */
  name: string;
  /** Opens the page, from anywhere in a logged-in session; `store` is the demo's, for what only the server makes. */
  open(page: Page, panel: string, store: Store): Promise<void>;
  /** Photographs the box around these elements rather than the whole page. */
  crop?: readonly string[];
}

export interface Look {
  width: number;
  dark: boolean;
}

const FACILITY_ID = 'wro-1';
const FACILITY = `/facilities/${FACILITY_ID}`;
const PARTNER = 'Odra Movers';

async function go(page: Page, url: string): Promise<void> {
  await page.goto(url, { waitUntil: 'load' });
}

/** Submits the form that holds `button` and waits for the page it leads to. */
async function submit(page: Page, button: string): Promise<void> {
  await Promise.all([page.waitForNavigation(), page.click(button)]);
}

async function generateKey(page: Page, panel: string, label: string, origins = ''): Promise<void> {
  await go(page, `${panel}${FACILITY}/api`);
  await page.type('#new-label', label);
  if (origins) await page.type('#new-origins', origins);
  await submit(page, '.generate button[type=submit]');
}

/** An import file with one mistake, so the Import page shows how it names a problem. */
function badImportFile(dir: string): string {
  const data = JSON.parse(readDemoData()) as { facilities: { listings: { free_units: number }[] }[] };
  data.facilities[0]!.listings[0]!.free_units = 999;
  const file = join(dir, 'prices.json');
  writeFileSync(file, JSON.stringify(data));
  return file;
}

function readDemoData(): string {
  return readFileSync(join(REPO_ROOT, 'demo', 'data.json'), 'utf8');
}

/** Everything the shots show that the demo does not make: a revoked key beside the active ones, a failed import. */
export async function prepareShots(page: Page, panel: string): Promise<void> {
  await generateKey(page, panel, 'Old price-comparison test');
  await go(page, `${panel}${FACILITY}/api`);
  const action = await page.$$eval('form[data-revoke]', (forms) =>
    forms
      .filter((f) => f.closest('tr')?.textContent?.includes('Old price-comparison test'))
      .map((f) => f.getAttribute('action')),
  );
  await go(page, `${panel}${action[0]}`);
  await submit(page, 'main button.danger');
}

export const PANEL_SHOTS: PanelShot[] = [
  { name: 'facilities', open: (page, panel) => go(page, `${panel}/`) },
  { name: 'listings', open: (page, panel) => go(page, `${panel}${FACILITY}`) },
  {
    name: 'new-key',
    open: (page, panel) => generateKey(page, panel, PARTNER, 'https://odra-movers.example'),
  },
  { name: 'api', open: (page, panel) => go(page, `${panel}${FACILITY}/api`) },
  {
    name: 'referrals',
    crop: ['.referral-figure', 'main table'],
    open: async (page, panel, store) => {
      const keys = (await store.listKeys(FACILITY_ID)).filter((k) => k.revoked_at === null);
      const partner = keys.find((k) => k.label === PARTNER);
      const other = keys.find((k) => k !== partner);
      if (!partner || !other) throw new Error(`${FACILITY_ID} has no active key labelled "${PARTNER}" beside another`);
      await recordDemoClicks(store, FACILITY_ID, [partner.ref, other.ref]);
      await go(page, `${panel}/keys/${partner.id}/referrals`);
    },
  },
  {
    name: 'embed',
    open: async (page, panel) => {
      await go(page, `${panel}${FACILITY}/embed?show_facility=1&available_only=1`);
      await page.waitForSelector('storage-listings >>> [part~="listing"]', { timeout: 15_000 });
    },
  },
  { name: 'snapshots', open: (page, panel) => go(page, `${panel}${FACILITY}/snapshots`) },
  {
    name: 'import',
    open: async (page, panel) => {
      const dir = mkdtempSync(join(tmpdir(), 'listings-shot-'));
      try {
        await go(page, `${panel}/import`);
        const input = await page.$('#file');
        await (input as unknown as { uploadFile(p: string): Promise<void> }).uploadFile(badImportFile(dir));
        await submit(page, 'main button[type=submit]');
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  },
  { name: 'audit', open: (page, panel) => go(page, `${panel}/audit?facility=wro-1`) },
  { name: 'account', open: (page, panel) => go(page, `${panel}/account`) },
  { name: 'enrol', open: (page, panel) => go(page, `${panel}/account/2fa`) },
  { name: 'operators', open: (page, panel) => go(page, `${panel}/operators`) },
];

/** A fresh browser context at this width and colour scheme, logged in to the panel (the login page photographed first when asked). */
export async function panelSession(
  browser: Browser,
  panel: string,
  login: { email: string; password: string },
  look: Look,
  loginShot?: (page: Page, watched: Watched) => Promise<void>,
): Promise<{ page: Page; watched: Watched; close(): Promise<void> }> {
  const context = await browser.createBrowserContext();
  const page = await context.newPage();
  const watched = watchPage(page);
  await page.setViewport({ width: look.width, height: 800, deviceScaleFactor: 1 });
  await page.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: look.dark ? 'dark' : 'light' }]);
  await go(page, `${panel}/login`);
  await loginShot?.(page, watched);
  await page.type('#email', login.email);
  await page.type('#password', login.password);
  await submit(page, 'main button[type=submit]');
  if (new URL(page.url()).pathname !== '/') throw new Error(`logging in as ${login.email} led to ${page.url()}`);
  return { page, watched, close: () => context.close() };
}

/**
 * Photographs the page as it is, whole, or the box around `crop`'s elements (each selector's first match) with a margin:
 * the viewport is made as tall as the page first, so that photos below the fold load (they are lazy) and are in the
 * picture. Fails on a console error or a photo that did not load.
 */
export async function photographPanelPage(
  page: Page,
  watched: Watched,
  look: Look,
  path: string,
  crop?: readonly string[],
): Promise<void> {
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  await page.setViewport({ width: look.width, height: Math.max(height, 200), deviceScaleFactor: 1 });
  await settled(page, watched);
  // The page may have grown as photos came in: the second measure is the one photographed.
  const final = await page.evaluate(() => document.documentElement.scrollHeight);
  await page.setViewport({ width: look.width, height: final, deviceScaleFactor: 1 });
  if (crop) await page.screenshot({ path, clip: await boxAround(page, look, crop) });
  else await page.screenshot({ path, fullPage: true });
  await page.setViewport({ width: look.width, height: 800, deviceScaleFactor: 1 });
}

/** The box around the first match of each selector, 12 px wider on every side (within the page's width). */
async function boxAround(page: Page, look: Look, selectors: readonly string[]) {
  const boxes = [];
  for (const selector of selectors) {
    const box = await (await page.$(selector))?.boundingBox();
    if (!box) throw new Error(`${page.url()}: ${selector} is not visible`);
    boxes.push(box);
  }
  const margin = 12;
  const x = Math.max(0, Math.min(...boxes.map((b) => b.x)) - margin);
  const y = Math.max(0, Math.min(...boxes.map((b) => b.y)) - margin);
  const right = Math.min(look.width, Math.max(...boxes.map((b) => b.x + b.width)) + margin);
  const bottom = Math.max(...boxes.map((b) => b.y + b.height)) + margin;
  return { x, y, width: right - x, height: bottom - y };
}

/** Extra looks the docs show: the keys table on a phone, the configurator in dark mode. */
const DOCS_VARIANTS: { name: string; look: Look }[] = [
  { name: 'api', look: { width: PHONE, dark: false } },
  { name: 'embed', look: { width: DESKTOP, dark: true } },
];

const suffixOf = (look: Look) => `${look.width === PHONE ? '-360' : ''}${look.dark ? '-dark' : ''}`;

/**
 * Every panel page at desktop width in light mode into docsDir (screenshot-panel-NAME.png), with the DOCS_VARIANTS;
 * with reviewDir, every page also at 360 px and in dark mode there, to look at. Calls `wrote` with each file.
 */
export async function photographPanel(
  browser: Browser,
  panel: string,
  login: { email: string; password: string },
  dirs: { docs: string; review?: string },
  store: Store,
  wrote: (path: string) => void,
): Promise<void> {
  const desktop: Look = { width: DESKTOP, dark: false };
  const runs: { look: Look; dir: string; names?: string[] }[] = [{ look: desktop, dir: dirs.docs }];
  for (const v of DOCS_VARIANTS) runs.push({ look: v.look, dir: dirs.docs, names: [v.name] });
  if (dirs.review) {
    for (const look of [
      { width: PHONE, dark: false },
      { width: DESKTOP, dark: true },
    ])
      runs.push({ look, dir: dirs.review });
  }
  let prepared = false;
  for (const run of runs) {
    const wanted = (name: string) => !run.names || run.names.includes(name);
    const file = (name: string) => join(run.dir, `screenshot-panel-${name}${suffixOf(run.look)}.png`);
    const session = await panelSession(browser, panel, login, run.look, async (page, watched) => {
      if (!wanted('login')) return;
      await photographPanelPage(page, watched, run.look, file('login'));
      wrote(file('login'));
    });
    try {
      if (!prepared) await prepareShots(session.page, panel);
      prepared = true;
      for (const shot of PANEL_SHOTS.filter((s) => wanted(s.name))) {
        await shot.open(session.page, panel, store);
        await photographPanelPage(session.page, session.watched, run.look, file(shot.name), shot.crop);
        wrote(file(shot.name));
      }
    } finally {
      await session.close();
    }
  }
}
