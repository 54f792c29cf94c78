// A free local port, the system Chromium, Firefox and WebKit: shared by the tests, the benches and the demo's screenshots.
import { createServer } from 'node:net';
import { launch, type Browser } from 'puppeteer-core';
import { remote } from 'webdriverio';
import { CHROMIUM_ARGS, CHROMIUM_PATH, FIREFOX_PATH, FIREFOX_PREFS } from './browsers.js';
import { startWebKitDriver, WEBKIT_CAPABILITIES } from './webkit-driver.js';

/** The system Chromium (tools/browsers.js); never a downloaded browser. */
export function launchChromium(): Promise<Browser> {
  return launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, headless: true });
}

/** The system Firefox (tools/browsers.js), driven by puppeteer over WebDriver BiDi: the same Page API as Chromium's. */
export function launchFirefox(): Promise<Browser> {
  return launch({ browser: 'firefox', executablePath: FIREFOX_PATH, extraPrefsFirefox: FIREFOX_PREFS, headless: true });
}

/** A WebDriver session in WebKitGTK's MiniBrowser (tools/webkit-driver.js); `close()` ends it and its driver. */
export interface WebKit {
  browser: WebdriverIO.Browser;
  close(): Promise<void>;
}

export async function launchWebKit(): Promise<WebKit> {
  const driver = await startWebKitDriver();
  try {
    const browser = await remote({
      hostname: driver.hostname,
      port: driver.port,
      capabilities: WEBKIT_CAPABILITIES,
      logLevel: 'error',
    });
    return {
      browser,
      close: async () => {
        await browser.deleteSession().catch(() => {});
        await driver.stop();
      },
    };
  } catch (error) {
    await driver.stop();
    throw error;
  }
}

/** A port that was free a moment ago (the demo's public URL must carry the real port, so 0 will not do). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}
