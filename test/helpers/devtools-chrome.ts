// Chromium with a DevTools port, for Lighthouse: started in its own process group and awaited whole before its profile goes.
import { spawn, type ChildProcess } from 'node:child_process';
import { CHROMIUM_ARGS, CHROMIUM_PATH as CHROME } from '../../tools/browsers.js';
import { tempDir } from './fixture.ts';
import { until } from './wait.ts';

/** Chromium with a fresh profile and a DevTools port of its own choosing, which it prints on stderr. */
export async function launchChrome(): Promise<{ port: number; close: () => Promise<void> }> {
  const profile = tempDir('listings-chrome-');
  const child: ChildProcess = spawn(
    CHROME,
    [...CHROMIUM_ARGS, '--remote-debugging-port=0', `--user-data-dir=${profile.dir}`, 'about:blank'],
    // Its own process group: the browser's helpers (zygote, renderers, utility processes) can be ended and awaited with
    // it before the profile is removed. They outlive the browser by a moment and kept writing into the profile, so its
    // removal failed with ENOTEMPTY in CI, even with retries for a second.
    { stdio: ['ignore', 'ignore', 'pipe'], detached: true },
  );
  const port = await new Promise<number>((resolve, reject) => {
    let err = '';
    child.stderr!.on('data', (chunk: Buffer) => {
      err += chunk.toString();
      const m = /DevTools listening on ws:\/\/[^:]+:(\d+)\//.exec(err);
      if (m) resolve(Number(m[1]));
    });
    child.once('exit', (code) => reject(new Error(`${CHROME} exited (${code}) before DevTools listened:\n${err}`)));
  });
  return {
    port,
    close: async () => {
      signalGroup(child.pid!, 'SIGTERM');
      await until('Chromium and all its helper processes to exit', () => !signalGroup(child.pid!, 0), {
        timeoutMs: 15_000,
      }).catch((err: unknown) => {
        signalGroup(child.pid!, 'SIGKILL');
        throw err;
      });
      profile.cleanup();
    },
  };
}

/** Sends `signal` to every process in the group `pgid` (0 only probes); false once none is left. */
function signalGroup(pgid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ESRCH') return false;
    throw err;
  }
}
