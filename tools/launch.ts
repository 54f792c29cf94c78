// A free local port and the system Chromium: shared by the tests, the benches and the demo's screenshots.
import { createServer } from 'node:net';
import { launch, type Browser } from 'puppeteer-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './browsers.js';

/** The system Chromium (tools/browsers.js); never a downloaded browser. */
export function launchChromium(): Promise<Browser> {
  return launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, headless: true });
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
