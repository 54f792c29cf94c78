// Starts Debian's WebKitWebDriver (WebKitGTK, Safari's engine) on a free port, under a private Xvfb display when there
// is no display: MiniBrowser, the browser it drives, has no headless mode. Plain JavaScript, like tools/browsers.js.
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { WEBKIT_DRIVER_PATH } from './browsers.js';
import { XVFB_PATH } from './test-programs.js';

/** Resolves with what a process wrote before it exited, or rejects when it cannot be started. */
function exited(child) {
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code, signal) => resolve(`${child.spawnfile} exited (${signal ?? code})`));
  });
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** An Xvfb of its own on the first free display number, which Xvfb itself writes to fd 3 once it accepts clients. */
async function startXvfb() {
  const xvfb = spawn(XVFB_PATH, ['-displayfd', '3', '-screen', '0', '1600x1200x24', '-nolisten', 'tcp'], {
    stdio: ['ignore', 'ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  xvfb.stderr.on('data', (chunk) => (stderr += chunk));
  const display = await Promise.race([
    new Promise((resolve) => {
      let text = '';
      xvfb.stdio[3].on('data', (chunk) => {
        text += chunk;
        if (text.includes('\n')) resolve(`:${text.trim()}`);
      });
    }),
    exited(xvfb).then((why) => Promise.reject(new Error(`${why}: ${stderr.trim()}`))),
  ]);
  return { display, process: xvfb };
}

/** Polls the driver's /status until it is ready, or fails when it exits first or after `timeoutMs`. */
async function waitForDriver(url, driver, timeoutMs) {
  let gone;
  void exited(driver).then(
    (why) => (gone = why),
    (error) => (gone = error.message),
  );
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (gone) throw new Error(`WebKitWebDriver (${WEBKIT_DRIVER_PATH}): ${gone}`);
    try {
      const res = await fetch(`${url}/status`);
      if (res.ok && (await res.json()).value?.ready) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`WebKitWebDriver not ready on ${url} after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * A running WebKitWebDriver: its port, and `stop()` that ends it and the Xvfb started for it. Sessions ask for
 * `WEBKIT_CAPABILITIES`.
 */
export async function startWebKitDriver({ timeoutMs = 20_000 } = {}) {
  const xvfb = process.env.DISPLAY ? undefined : await startXvfb();
  const port = await freePort();
  const driver = spawn(WEBKIT_DRIVER_PATH, [`--port=${port}`], {
    stdio: 'ignore',
    env: { ...process.env, ...(xvfb && { DISPLAY: xvfb.display }) },
  });
  const stop = async () => {
    for (const child of [driver, xvfb?.process]) {
      if (!child || child.exitCode !== null || child.signalCode !== null) continue;
      const done = exited(child).catch(() => {});
      child.kill();
      await done;
    }
  };
  try {
    await waitForDriver(`http://127.0.0.1:${port}`, driver, timeoutMs);
  } catch (error) {
    await stop();
    throw error;
  }
  return { hostname: '127.0.0.1', port, stop };
}

/** MiniBrowser, the driver's own browser, over classic WebDriver (its WebDriver BiDi is still partial). */
export const WEBKIT_CAPABILITIES = { browserName: 'MiniBrowser', 'wdio:enforceWebDriverClassic': true };
