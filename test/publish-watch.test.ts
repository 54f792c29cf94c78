// `snapshot publish --watch` as an operator runs it: an import in another process reaches the bucket's pointer, a
// second publisher is kept out, a failing store is retried without losing the change, SIGTERM exits 0.
import { spawn, type ChildProcess } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import type { FaultProxy } from './helpers/fault-proxy.ts';
import { BIN, REPO, cliAsync, demoJson, writeJson } from './helpers/fixture.ts';
import { bucketState } from './helpers/published.ts';
import { proxiedS3ForAll, publishThroughProxy } from './helpers/proxied-s3.ts';
import type { S3Server } from './helpers/s3-server.ts';

let s3: S3Server;
let proxy: FaultProxy;
let dir: string;
let dbFile: string;
let keyFile: string;
const PREFIX = 'live';

const publishArgs = (...extra: string[]) => [...publishThroughProxy({ s3, proxy, dbFile, keyFile }, PREFIX), ...extra];

/** Everything a child printed so far, and a wait for a pattern in it (already printed, or yet to come). */
function output(child: ChildProcess) {
  const text = { stdout: '', stderr: '' };
  const waiters: (() => void)[] = [];
  for (const stream of ['stdout', 'stderr'] as const) {
    child[stream]!.on('data', (d: Buffer) => {
      text[stream] += d.toString();
      for (const w of [...waiters]) w();
    });
  }
  const waitFor = (stream: 'stdout' | 'stderr', pattern: RegExp, deadlineMs = 30_000) =>
    new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`no ${pattern} on ${stream} within ${deadlineMs} ms: ${text[stream]}`)),
        deadlineMs,
      );
      const check = () => {
        if (!pattern.test(text[stream])) return;
        clearTimeout(timer);
        waiters.splice(waiters.indexOf(check), 1);
        resolve();
      };
      waiters.push(check);
      check();
    });
  return { text, waitFor };
}

/** Polls the pointer over plain HTTP until `ok` holds; rejects at the deadline. */
async function pointerUntil(facility: string, ok: (version: number) => boolean, deadlineMs = 30_000): Promise<number> {
  const deadline = Date.now() + deadlineMs;
  for (;;) {
    const state = (await bucketState(s3, PREFIX, [facility]))[facility];
    if (state && ok(state.version)) {
      expect(state.verifies).toBe(true);
      return state.version;
    }
    if (Date.now() > deadline) throw new Error(`${facility} pointer still at ${state?.version} after ${deadlineMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** An import of the demo data with one price changed, by the real CLI in another process. */
async function importPrice(gross: number) {
  const data = demoJson();
  data.facilities[0].listings.find((l: { code: string }) => l.code === 'M-07').price_gross = gross;
  const r = await cliAsync(['import', writeJson(dir, `import-${gross}.json`, data), '--db', dbFile]);
  expect(r.status).toBe(0);
}

proxiedS3ForAll((t) => ({ s3, proxy, dir, dbFile, keyFile } = t));

describe('snapshot publish --watch', { timeout: 120_000 }, () => {
  it('publishes an import made by another process, keeps a second publisher out, retries a failing store, exits 0 on SIGTERM', async () => {
    const watcher = spawn(process.execPath, [BIN, ...publishArgs('--watch')], {
      cwd: REPO,
      env: { ...process.env, ...s3.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const printed = output(watcher);
    try {
      await printed.waitFor('stdout', /published .*wro-1 v1.*: 22 objects/);
      const first = await pointerUntil('wro-1', (v) => v === 1);

      await importPrice(41000);
      const second = await pointerUntil('wro-1', (v) => v > first);
      expect(second).toBe(2);
      await printed.waitFor('stdout', /published wro-1 v2: 8 objects/);

      // A one-shot publish with something to write while the watcher holds the target: refused in one line that
      // names the watch, which never ends by itself, and says to stop it.
      const refused = await cliAsync(publishArgs('--force'), { env: s3.env });
      expect(refused.status).toBe(1);
      expect(refused.stderr).toMatch(/is held by a --watch publisher \(process \d+ on .+ since .+\) .*: stop it/);
      expect((await bucketState(s3, PREFIX, ['wro-1']))['wro-1']!.version).toBe(2);

      // The store fails every request for a while: the change waits, is retried with backoff, and lands after recovery.
      proxy.setPlan({ failRate: 1, statuses: [503] });
      const retried = printed.waitFor('stderr', /publish failed, retrying in \d+ s: /);
      await importPrice(42000);
      await retried;
      expect((await bucketState(s3, PREFIX, ['wro-1']))['wro-1']!.version).toBe(2);
      proxy.setPlan({});
      expect(await pointerUntil('wro-1', (v) => v > second)).toBeGreaterThan(2);
    } finally {
      proxy.setPlan({});
      watcher.kill('SIGTERM');
    }
    const code = await new Promise<number | null>((resolve) =>
      watcher.exitCode !== null ? resolve(watcher.exitCode) : watcher.once('exit', resolve),
    );
    expect(code).toBe(0);
    expect(printed.text.stderr).toMatch(/stopped: the facilities in flight were finished and the lock released/);
    expect(await s3.keys(`${PREFIX}/.publish-lock/`)).toEqual([]);
  });
});
