// Lighthouse on the panel's login page and each tab of a logged-in facility: accessibility at least 95 (issues 27, 46).
import lighthouse from 'lighthouse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../server/domain/passwords.ts';
import { startPanel, type RunningPanel } from '../server/panel/server.ts';
import { openStore, type Store } from '../server/store/store.ts';
import { launchChrome } from './helpers/devtools-chrome.ts';
import { demoDb, tempDir } from './helpers/fixture.ts';

const PASSWORD = 'correct horse battery staple';

describe("Lighthouse on the operator's panel", () => {
  let cleanup: () => void;
  let store: Store;
  let panel: RunningPanel;
  let chrome: Awaited<ReturnType<typeof launchChrome>>;
  let cookie: string;
  beforeAll(async () => {
    let dir: string;
    ({ dir, cleanup } = tempDir());
    const demo = demoDb(dir);
    demo.db.close();
    store = await openStore(demo.file);
    await store.addOperator('ops@example.com', await hashPassword(PASSWORD));
    panel = await startPanel({
      store,
      host: '127.0.0.1',
      port: 0,
      publicUrl: 'http://127.0.0.1:8787',
      keyPrefix: 'svc',
    });
    const login = await fetch(`${panel.url}/login`, {
      method: 'POST',
      redirect: 'manual',
      headers: { origin: panel.url, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ email: 'ops@example.com', password: PASSWORD }),
    });
    cookie = login.headers.get('set-cookie')!.split(';')[0]!;
    chrome = await launchChrome();
  }, 60_000);
  afterAll(async () => {
    await chrome?.close();
    await panel?.close();
    await store?.close();
    cleanup?.();
  });

  it.each([
    '/login',
    '/facilities/wro-1',
    '/facilities/wro-1/api',
    '/facilities/wro-1/snapshots',
    '/facilities/wro-1/embed',
  ])(
    '%s scores at least 95 for accessibility',
    async (path) => {
      const result = await lighthouse(`${panel.url}${path}`, {
        port: chrome.port,
        onlyCategories: ['accessibility'],
        logLevel: 'error',
        output: 'json',
        extraHeaders: { Cookie: cookie },
      });
      // The session cookie reached the page: it was not sent to the login form instead (the Embed tab's script puts
      // its form's query in the URL, so the path alone is compared).
      expect(new URL(result!.lhr.finalDisplayedUrl).pathname).toBe(path);
      const score = result!.lhr.categories.accessibility!.score;
      const failed = Object.values(result!.lhr.audits)
        .filter((a) => a.scoreDisplayMode === 'binary' && a.score === 0)
        .map((a) => a.id);
      expect({ score, failed }).toEqual({ score: expect.toSatisfy((s: number) => s >= 0.95), failed: [] });
    },
    120_000,
  );
});
