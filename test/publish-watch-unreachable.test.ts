// `snapshot publish --watch` started before its store is up: it keeps running, says each retry in one line, and
// publishes within the announced backoff once the store answers.
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, REPO, freePort } from './helpers/fixture.ts';
import { publishFixture } from './helpers/published.ts';
import { startS3, type S3Server } from './helpers/s3-server.ts';
import { until } from './helpers/wait.ts';

let cleanup: () => void;
let dbFile: string;
let keyFile: string;
let s3: S3Server | undefined;

beforeAll(async () => {
  ({ cleanup, dbFile, keyFile } = await publishFixture());
});
afterAll(async () => {
  await s3?.stop();
  cleanup();
});

describe('snapshot publish --watch before its store', { timeout: 90_000 }, () => {
  it('retries from the first attempt, one line each, and publishes within the backoff once the store is up', async () => {
    const port = await freePort();
    const args = ['snapshot', 'publish', '--db', dbFile, '--to', 's3://listings/live', '--watch'];
    const endpoint = [
      '--endpoint',
      `http://127.0.0.1:${port}`,
      '--path-style',
      '--signing-key',
      keyFile,
      '--public-url',
      'https://listings.example.com',
    ];
    const env = {
      ...process.env,
      AWS_ACCESS_KEY_ID: 'S3RVER',
      AWS_SECRET_ACCESS_KEY: 'S3RVER',
      AWS_REGION: 'us-east-1',
    };
    const watcher = spawn(process.execPath, [BIN, ...args, ...endpoint], { cwd: REPO, env, stdio: 'pipe' });
    const text = { stdout: '', stderr: '' };
    watcher.stdout.on('data', (d: Buffer) => (text.stdout += d.toString()));
    watcher.stderr.on('data', (d: Buffer) => (text.stderr += d.toString()));
    const retries = () => [
      ...text.stderr.matchAll(/publish failed, retrying in (\d+) s: cannot reach .*ECONNREFUSED/g),
    ];
    try {
      await until('two retries', () => retries().length >= 2, { everyMs: 50, timeoutMs: 30_000 });
      expect(watcher.exitCode).toBeNull();
      const started = Date.now();
      s3 = await startS3({ port });
      const backoffMs = Number(retries().at(-1)![1]) * 1000;
      await until('the first publish', () => /published .*wro-1 v1/.test(text.stdout), {
        everyMs: 50,
        timeoutMs: 60_000,
      });
      // The wait that was announced, plus the SDK's own short retries and the publish itself.
      expect(Date.now() - started).toBeLessThan(backoffMs + 15_000);
      expect(await s3.keys('live/wro-1/')).toContain('live/wro-1/listings.json');
      // Each retry is one line; nothing else went to stderr before the store came up.
      const lines = text.stderr.trimEnd().split('\n');
      expect(lines[0]).toMatch(/^watching for changes/);
      expect(lines.slice(1).every((l) => / publish failed, retrying in \d+ s: /.test(l))).toBe(true);
    } finally {
      watcher.kill('SIGTERM');
    }
    const code = await new Promise<number | null>((resolve) =>
      watcher.exitCode !== null ? resolve(watcher.exitCode) : watcher.once('exit', resolve),
    );
    expect(code).toBe(0);
  });
});
