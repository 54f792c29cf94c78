// The running demo publishes its snapshots as `snapshot publish --watch` does: an import by another process reaches
// /demo/snapshots/<facility>, and the panel's Snapshot column names the demo's target.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN, REPO, cliAsync, demoJson, freePort, tempDir, writeJson } from './helpers/fixture.ts';
import { until } from './helpers/wait.ts';

const dir = tempDir();
afterAll(() => dir.cleanup());

describe('the demo snapshots', { timeout: 120_000 }, () => {
  it('follow an import, show their target in the panel and publish from it', async () => {
    const [port, panelPort] = [await freePort(), await freePort()];
    const db = join(dir.dir, 'demo.db');
    const args = ['demo', '--db', db, '--port', String(port), '--panel-port', String(panelPort)];
    const demo = spawn(process.execPath, [BIN, ...args], {
      cwd: REPO,
      env: { ...process.env, LOG: '' },
      stdio: 'pipe',
    });
    let stderr = '';
    demo.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const version = async () => {
      const res = await fetch(`http://127.0.0.1:${port}/demo/snapshots/wro-1/listings.json`);
      return res.ok ? ((await res.json()) as { version: number }).version : 0;
    };
    try {
      await until('the demo to start', () => stderr.includes('Press Ctrl-C'), { everyMs: 100, timeoutMs: 60_000 });
      const first = await version();
      expect(first).toBeGreaterThan(0);

      const data = demoJson();
      data.facilities[0].listings.find((l: { code: string }) => l.code === 'XL-20').price_gross = 71234;
      const imported = await cliAsync(['import', writeJson(dir.dir, 'changed.json', data), '--db', db]);
      expect(imported.status).toBe(0);
      await until('the snapshot to follow', async () => (await version()) > first, { everyMs: 100, timeoutMs: 20_000 });
      const body = await (await fetch(`http://127.0.0.1:${port}/demo/snapshots/wro-1/listings.json`)).text();
      expect(body).toContain('"gross":71234');

      const login = JSON.parse(readFileSync(join(dir.dir, 'demo-operator.json'), 'utf8')) as Record<string, string>;
      const panel = `http://127.0.0.1:${panelPort}`;
      const res = await fetch(`${panel}/login`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: panel },
        body: new URLSearchParams({ email: login.email!, password: login.password! }).toString(),
      });
      const cookie = res.headers.get('set-cookie')!.split(';')[0]!;
      const list = await (await fetch(`${panel}/`, { headers: { cookie } })).text();
      expect(list).toMatch(/<td>v\d+, expires /);
      expect(list).not.toContain('no target');
      // The panel's "publish now" takes turns with the demo's own publishing, in the same process.
      const csrf = /name="csrf" value="([^"]+)"/.exec(list)![1]!;
      const now = await fetch(`${panel}/facilities/wro-1/snapshots/publish`, {
        method: 'POST',
        headers: { cookie, origin: panel, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ csrf }).toString(),
      });
      expect(now.status).toBe(200);
      expect(await now.text()).toContain('Published version');
      expect(await version()).toBeGreaterThan(first + 1);
    } finally {
      demo.kill('SIGTERM');
      await new Promise((resolve) => (demo.exitCode !== null ? resolve(undefined) : demo.once('exit', resolve)));
    }
    expect(stderr).not.toMatch(/demo snapshots: (stopped|publish failed)/);
  });
});
