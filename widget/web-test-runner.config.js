// Browser tests of the widget in real Chromium (Debian's, or CHROME_PATH), against the fake API and the signed
// snapshot fixtures that widget/test/server/ serves from this test runner.
import { fileURLToPath } from 'node:url';
import { esbuildPlugin } from '@web/dev-server-esbuild';
import { chromeLauncher } from '@web/test-runner-chrome';
import { fakeApi } from './test/server/fake-api.js';

export default {
  rootDir: fileURLToPath(new URL('..', import.meta.url)),
  files: ['widget/test/**/*.test.ts'],
  // The production build of Lit, as in the bundle (and without its "dev mode" console warning).
  nodeResolve: { exportConditions: ['browser', 'production'] },
  plugins: [esbuildPlugin({ ts: true, target: 'es2022' })],
  middleware: [fakeApi()],
  browsers: [
    chromeLauncher({
      launchOptions: {
        executablePath: process.env.CHROME_PATH || '/usr/bin/chromium',
        headless: true,
        args: [
          '--no-sandbox',
          '--headless=new',
          '--disable-gpu',
          '--disable-background-networking',
          '--disable-component-update',
          '--disable-sync',
        ],
      },
    }),
  ],
  // One page at a time: a second page would be a background tab, hidden, where IntersectionObserver and
  // requestAnimationFrame never run and refreshing widgets pause (as they should in a hidden tab).
  concurrency: 1,
  testFramework: { config: { timeout: 10000 } },
  testsFinishTimeout: 180000,
};
