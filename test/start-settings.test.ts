// `listings serve` (with its panel), `listings panel` and `listings demo` check every setting before anything listens:
// a bad one is one line and exit 2 at once, never a running API beside a panel or a deliverer that failed.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, demoDb, freePort, REPO, tempDir } from './helpers/fixture.ts';

let dir: ReturnType<typeof tempDir>;
let file: string;
beforeAll(() => {
  dir = tempDir();
  const demo = demoDb(dir.dir);
  file = demo.file;
  demo.db.close();
});
afterAll(() => dir.cleanup());

/** The real binary until it exits or says it serves (then it is stopped): its code, stderr and whether it served. */
function serveUntilExitOrBanner(args: string[], env: NodeJS.ProcessEnv) {
  const child = spawn(process.execPath, [BIN, ...args], {
    cwd: REPO,
    env: { ...process.env, LISTINGS_DB: file, ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  let served = false;
  child.stderr.on('data', (d: Buffer) => {
    stderr += d.toString();
    if (!served && /storage-listings (serving|panel)|Press Ctrl-C/.test(stderr)) {
      served = true;
      child.kill('SIGTERM');
    }
  });
  return new Promise<{ code: number | null; stderr: string; served: boolean }>((resolve) =>
    child.once('close', (code) => resolve({ code, stderr, served })),
  );
}

describe('serve --panel with a bad panel setting', () => {
  it.each([
    ['PANEL_PORT', '19895x'],
    ['PANEL_URL', 'ftp://x'],
    ['PANEL_REQUIRE_2FA', 'yes'],
  ])(
    '%s=%s: one line naming it, exit 2, nothing listening',
    async (name, value) => {
      const port = await freePort();
      const r = await serveUntilExitOrBanner(['serve', '--port', String(port), '--panel', '--quiet'], {
        [name]: value,
      });
      expect(r.served).toBe(false);
      expect(r.code).toBe(2);
      expect(r.stderr.trimEnd().split('\n')).toEqual([expect.stringMatching(new RegExp(`^error: ${name}=`))]);
      // The port it was given is free: the API never listened.
      expect(await fetch(`http://127.0.0.1:${port}/`).catch((err: Error) => err)).toBeInstanceOf(Error);
    },
    30_000,
  );

  it('WEBHOOKS_ALLOW_PRIVATE=yes, even without --panel: the deliverer reads it', async () => {
    const port = await freePort();
    const r = await serveUntilExitOrBanner(['serve', '--port', String(port), '--quiet'], {
      WEBHOOKS_ALLOW_PRIVATE: 'yes',
    });
    expect([r.served, r.code]).toEqual([false, 2]);
    expect(r.stderr.trimEnd().split('\n')).toEqual([expect.stringMatching(/^error: WEBHOOKS_ALLOW_PRIVATE=yes: /)]);
  }, 30_000);

  it('good ones serve', async () => {
    const r = await serveUntilExitOrBanner(['serve', '--port', '0', '--panel', '--quiet'], { PANEL_PORT: '0' });
    expect(r.served).toBe(true);
  }, 30_000);
});

describe('demo with a bad LOG', () => {
  it('LOG=yes: one line naming it, exit 2, no database made', async () => {
    const db = join(dir.dir, 'demo', 'demo.db');
    const r = await serveUntilExitOrBanner(['demo', '--db', db, '--port', '0', '--panel-port', '0'], { LOG: 'yes' });
    expect([r.served, r.code]).toEqual([false, 2]);
    expect(r.stderr.trimEnd().split('\n')).toEqual([expect.stringMatching(/^error: LOG=yes: /)]);
    expect(existsSync(join(dir.dir, 'demo'))).toBe(false);
  }, 30_000);
});

describe('panel with options that do not go together', () => {
  it('--ttl without --publish-to: one line, exit 2, nothing listening', async () => {
    const port = await freePort();
    const r = await serveUntilExitOrBanner(['panel', '--port', String(port), '--ttl', '2d'], {});
    expect([r.served, r.code]).toEqual([false, 2]);
    expect(r.stderr.trimEnd().split('\n')).toEqual([expect.stringMatching(/^error: --ttl /)]);
  }, 30_000);
});
