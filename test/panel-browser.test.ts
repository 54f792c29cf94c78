// The panel in Chromium at 390 px: logged in with the keyboard, axe-core finds nothing on any page, nothing overflows
// sideways, a generated key is shown once with its copy button, an import's problems are listed.
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Browser, Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../server/domain/passwords.ts';
import { startPanel, type RunningPanel } from '../server/panel/server.ts';
import { openStore, type Store } from '../server/store/store.ts';
import { launchChromium } from '../tools/launch.ts';
import { demoDb, demoJson, tempDir } from './helpers/fixture.ts';

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const PASSWORD = 'correct horse battery staple';
/** Set to a folder to keep the screenshots the README shows (the API tab and the key shown once). */
const SHOTS = process.env.PANEL_SCREENSHOT_DIR;

let dir: string;
let cleanup: () => void;
let store: Store;
let panel: RunningPanel;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  ({ dir, cleanup } = tempDir());
  const demo = demoDb(dir);
  demo.db.close();
  store = await openStore(demo.file);
  await store.addOperator('ops@example.com', await hashPassword(PASSWORD));
  panel = await startPanel({
    store,
    host: '127.0.0.1',
    port: 0,
    publicUrl: 'https://listings.example.com',
    keyPrefix: 'svc',
  });
  browser = await launchChromium();
  page = await browser.newPage();
  // Only so the test can inject axe-core; the panel's own pages never need an inline script.
  await page.setBypassCSP(true);
  await page.setViewport({ width: 390, height: 844 });
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await panel?.close();
  await store?.close();
  cleanup?.();
});

async function checkPage(what: string): Promise<void> {
  await page.evaluate(AXE);
  const found = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(c: Document): Promise<{ violations: { id: string }[] }> } }).axe;
    return (await axe.run(document)).violations.map((v) => v.id);
  });
  expect(found, `axe violations on ${what}`).toEqual([]);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow, `sideways overflow on ${what}`).toBeLessThanOrEqual(0);
}

async function go(path: string, what: string): Promise<void> {
  await page.goto(`${panel.url}${path}`);
  await checkPage(what);
}

describe('the panel in Chromium', () => {
  it('logs in with the keyboard alone', async () => {
    await go('/login', 'the login page');
    await page.focus('#email');
    await page.keyboard.type('ops@example.com');
    await page.keyboard.press('Tab');
    await page.keyboard.type(PASSWORD);
    await Promise.all([page.waitForNavigation(), page.keyboard.press('Enter')]);
    expect(new URL(page.url()).pathname).toBe('/');
    await checkPage('the facilities list');
  }, 60_000);

  it('has no axe violations on any tab, the audit log or the import page', async () => {
    for (const tab of ['', '/api', '/snapshots', '/embed'])
      await go(`/facilities/wro-1${tab}`, `tab ${tab || 'listings'}`);
    await go('/audit', 'the audit log');
    await go('/import', 'the import page');
  }, 60_000);

  it('has no axe violations in Polish and German either', async () => {
    for (const lang of ['pl', 'de']) {
      await page.setExtraHTTPHeaders({ 'accept-language': lang });
      for (const path of ['/', '/facilities/wro-1', '/facilities/wro-1/api', '/import'])
        await go(path, `${path} in ${lang}`);
      expect(await page.$eval('html', (e) => e.lang)).toBe(lang);
    }
    await page.setExtraHTTPHeaders({});
  }, 60_000);

  it('generates a key, shows it once with a copy button, and revokes it after a confirmation', async () => {
    await page.goto(`${panel.url}/facilities/wro-1/api`);
    if (SHOTS) await page.setViewport({ width: 1100, height: 900 });
    await page.type('#new-label', 'Broker site');
    await page.type('#new-origins', 'https://broker.example');
    await Promise.all([page.waitForNavigation(), page.click('.generate button[type=submit]')]);
    await checkPage('the new key');
    const key = await page.$eval('#new-key', (e) => (e as HTMLInputElement).value);
    expect(key).toMatch(/^svc_live_[A-Za-z0-9]{32}$/);
    expect(await page.$eval('button[data-copy="new-key"]', (b) => (b as HTMLButtonElement).hidden)).toBe(false);
    if (SHOTS) writeFileSync(join(SHOTS, 'screenshot-panel-new-key.png'), await page.screenshot({ fullPage: true }));
    await page.goto(`${panel.url}/facilities/wro-1/api`);
    expect(await page.content()).not.toContain(key);
    if (SHOTS) writeFileSync(join(SHOTS, 'screenshot-panel-api.png'), await page.screenshot({ fullPage: true }));
    await page.setViewport({ width: 390, height: 844 });
    await Promise.all([page.waitForNavigation(), page.click('.key form[method=get] button')]);
    await checkPage('the revoke confirmation');
    await Promise.all([page.waitForNavigation(), page.click('button.danger')]);
    expect((await store.listKeys('wro-1'))[0]!.revoked_at).not.toBeNull();
  }, 60_000);

  it('lists the problems of an import file with their JSON paths', async () => {
    const data = demoJson();
    data.facilities[0].listings[0].free_units = 999;
    const file = join(dir, 'bad.json');
    writeFileSync(file, JSON.stringify(data));
    await page.goto(`${panel.url}/import`);
    const input = await page.$('#file');
    await (input as unknown as { uploadFile(p: string): Promise<void> }).uploadFile(file);
    await Promise.all([page.waitForNavigation(), page.click('main button[type=submit]')]);
    expect(await page.$eval('.problems', (e) => e.textContent)).toContain('facilities[0].listings[0].free_units');
    await checkPage('the import problems');
  }, 60_000);
});
