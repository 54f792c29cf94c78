// Browser tests of the widget in real Chromium, Firefox and WebKit (Debian's `chromium`, `firefox-esr` and
// `webkit2gtk-driver`, or CHROME_PATH, FIREFOX_PATH and WEBKIT_DRIVER_PATH; no browser is downloaded), against the fake
// API and the signed snapshot fixtures that widget/test/server/ serves from this test runner. Chromium and Firefox are
// driven by puppeteer-core (Firefox over WebDriver BiDi), WebKitGTK's MiniBrowser by WebdriverIO over WebDriver.
// BROWSERS=chromium, BROWSERS=firefox or BROWSERS=webkit (or a comma-separated list) runs some of them.
import { fileURLToPath } from 'node:url';
import { esbuildPlugin } from '@web/dev-server-esbuild';
import { chromeLauncher, puppeteerCore } from '@web/test-runner-chrome';
import { WebdriverLauncher } from '@web/test-runner-webdriver';
import { CHROMIUM_ARGS, CHROMIUM_PATH, FIREFOX_PATH, FIREFOX_PREFS } from '../tools/browsers.js';
import { startWebKitDriver, WEBKIT_CAPABILITIES } from '../tools/webkit-driver.js';
import { fakeApi } from './test/server/fake-api.js';

const chromium = chromeLauncher({
  launchOptions: {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: CHROMIUM_ARGS,
  },
});

// With a custom puppeteer, the launcher passes `browser: 'firefox'` through and names itself "Firefox".
const firefox = chromeLauncher({
  puppeteer: puppeteerCore,
  launchOptions: {
    browser: 'firefox',
    executablePath: FIREFOX_PATH,
    headless: true,
    extraPrefsFirefox: FIREFOX_PREFS,
  },
  createPage: async ({ context }) => {
    const page = await context.newPage();
    // The runner sets an 800x600 viewport; puppeteer also sends a screen-orientation override that Firefox ESR 140
    // does not know yet. The viewport itself is applied, so only that one unknown command is forgiven.
    const setViewport = page.setViewport.bind(page);
    page.setViewport = (viewport) =>
      setViewport(viewport).catch((error) => {
        if (!String(error?.message).includes('setScreenOrientationOverride')) throw error;
      });
    return page;
  },
});

/** The WebDriver launcher with a WebKitWebDriver (and, without a display, an Xvfb) of its own for the run. */
class WebKitLauncher extends WebdriverLauncher {
  constructor() {
    super({ capabilities: WEBKIT_CAPABILITIES, logLevel: 'error' });
  }

  async initialize(config, testFiles) {
    this.server = await startWebKitDriver();
    Object.assign(this.options, { hostname: this.server.hostname, port: this.server.port });
    await super.initialize(config, testFiles);
    this.name = 'WebKit';
  }

  async stop() {
    await super.stop();
    await this.server?.stop();
  }
}

const wanted = (process.env.BROWSERS || 'chromium,firefox,webkit').split(',');

export default {
  rootDir: fileURLToPath(new URL('..', import.meta.url)),
  files: ['widget/test/**/*.test.ts'],
  // The production build of Lit, as in the bundle (and without its "dev mode" console warning).
  nodeResolve: { exportConditions: ['browser', 'production'] },
  // The project's tsconfig.json, for its decorator settings (Lit's experimental decorators, no define semantics).
  plugins: [
    esbuildPlugin({
      ts: true,
      target: 'es2022',
      tsconfig: fileURLToPath(new URL('../tsconfig.json', import.meta.url)),
    }),
  ],
  middleware: [fakeApi()],
  browsers: [
    wanted.includes('chromium') && chromium,
    wanted.includes('firefox') && firefox,
    wanted.includes('webkit') && new WebKitLauncher(),
  ].filter(Boolean),
  // One page at a time per browser: a second page would be a background tab, hidden, where IntersectionObserver and
  // requestAnimationFrame never run and refreshing widgets pause (as they should in a hidden tab).
  concurrency: 1,
  testFramework: { config: { timeout: 10000 } },
  testsFinishTimeout: 180000,
};
