// An error's stack reaches the log at every verbosity: `serve --quiet` and the demo (`npm start`, quiet by default).
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN, freePort, REPO, servedDemo, tempDir } from './helpers/fixture.ts';
import { until } from './helpers/wait.ts';

/** Makes facility wro-1's next build throw: its amenities are no longer JSON, and its revision moves so views drop. */
function breakFacility(file: string): void {
  const db = new Database(file);
  try {
    db.prepare("UPDATE facilities SET amenities = 'not json', revision = revision + 1 WHERE id = 'wro-1'").run();
  } finally {
    db.close();
  }
}

/** The error's log line: its level, the request id the 500 named, and a stack (frames, not just a message). */
function expectStack(output: string, requestId: string): void {
  const line = output.split('\n').find((l) => l.includes(requestId) && l.includes('"error"'));
  expect(line, output).toBeDefined();
  const entry = JSON.parse(line!) as { level: string; error: string };
  expect(entry.level).toBe('error');
  expect(entry.error).toMatch(/^SyntaxError/);
  expect(entry.error).toMatch(/\n\s+at /);
}

const cleanups: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});

describe('a handler that throws', () => {
  it('under serve --quiet: a 500 naming a request id, and the stack in the log', async () => {
    const demo = await servedDemo();
    cleanups.push(demo.close);
    demo.db.close();
    breakFacility(demo.file);
    const r = await fetch(`${demo.base}/external/listings`, { headers: { 'x-api-key': demo.reader.key } });
    expect(r.status).toBe(500);
    const requestId = r.headers.get('x-request-id')!;
    expect(await r.text()).not.toMatch(/\bat /);
    await until('the error in the log', () => demo.server.output().stdout.includes(requestId));
    expectStack(demo.server.output().stdout, requestId);
  });

  it('under the demo (npm start): the stack in its output', async () => {
    const dir = tempDir();
    cleanups.push(dir.cleanup);
    const port = await freePort();
    const file = join(dir.dir, 'demo.db');
    const child = spawn(process.execPath, [BIN, 'demo', '--db', file, '--port', String(port), '--panel-port', '0'], {
      cwd: REPO,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    cleanups.push(
      () =>
        new Promise<void>((resolve) => {
          child.once('exit', () => resolve());
          child.kill('SIGTERM');
        }),
    );
    let stdout = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    await until('the demo to start', () => stderr.includes('Press Ctrl-C'));
    breakFacility(file);
    const r = await fetch(`http://127.0.0.1:${port}/rent/wro-1/M-07`);
    expect(r.status).toBe(500);
    const requestId = r.headers.get('x-request-id')!;
    await until('the error in the output', () => stdout.includes(requestId));
    expectStack(stdout, requestId);
  });
});
