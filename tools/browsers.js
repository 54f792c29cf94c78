// The system browsers every browser test and tool uses (never a downloaded one), in one place: plain JavaScript, so that
// the web-test-runner config (loaded by plain node) and the TypeScript tests and tools import the same values.

/** Debian's Chromium unless CHROME_PATH names another. */
export const CHROMIUM_PATH = process.env.CHROME_PATH || '/usr/bin/chromium';

/** Headless as root on a machine with no GPU, and nothing that reaches the network by itself. */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--headless=new',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Debian's Firefox ESR unless FIREFOX_PATH names another. */
export const FIREFOX_PATH = process.env.FIREFOX_PATH || '/usr/bin/firefox-esr';

/** No update checks, telemetry or first-run pages in a test run. */
export const FIREFOX_PREFS = {
  'app.update.enabled': false,
  'datareporting.policy.dataSubmissionEnabled': false,
  'browser.shell.checkDefaultBrowser': false,
};

/** Debian's WebKitGTK WebDriver (package webkit2gtk-driver) unless WEBKIT_DRIVER_PATH names another. */
export const WEBKIT_DRIVER_PATH = process.env.WEBKIT_DRIVER_PATH || '/usr/bin/WebKitWebDriver';
