// Another process holding the database's write lock: reads keep being served, and the CLI waits for the lock, then
// either succeeds (lock held 2 s) or, past the 5 s busy timeout (lock held 7 s), says so in one line and exits 1.
//
// In `npm run test:slow`: it asserts elapsed time. Lower bounds are measured from a moment known to come before the
// wait they bound (the CLI's spawn, the lock's duration being sent), so a slow machine can only make them easier. The
// upper bounds keep wide margins on a loaded 2-core machine: the first read within 1.5 s (a read takes milliseconds;
// one queued behind the lock would take the full 2 s), at least 5 reads in 2 s and 10 in 7 s (about 100 and 350 on a
// quiet machine), and the CLI up to 2 s to get from opening the file to the lock (it needs milliseconds) before the
// 7 s lock would outlast its 5 s busy timeout.
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readlinkSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { listKeys } from '../server/store/keys.ts';
import { openDb } from '../server/store/db.ts';
import { BIN, demoDb, issueKey, REPO, startTestServer, tempDir, type CliResult } from './helpers/fixture.ts';
import { call } from './helpers/http.ts';
import { until } from './helpers/wait.ts';

let cleanup: () => void;
let file: string;
let reader: { key: string; id: string };
let victim: { key: string; id: string };
let app: Awaited<ReturnType<typeof startTestServer>>;
let holder: ChildProcess | undefined;

beforeEach(async () => {
  let dir: string;
  ({ dir, cleanup } = tempDir());
  const demo = demoDb(dir);
  file = demo.file;
  reader = issueKey(demo.db, 'wro-1');
  victim = issueKey(demo.db, 'wro-1');
  demo.db.close();
  // Last use is written every 100 ms here (30 s in production), so that writes are attempted while the lock is held.
  app = await startTestServer(file, { lastUseIntervalMs: 100, quiet: true });
});
afterEach(async () => {
  if (holder && holder.exitCode === null) holder.kill('SIGKILL');
  await app.close();
  cleanup();
});

/**
 * A child that takes the write lock (BEGIN IMMEDIATE plus a write) and holds it until told how much longer to hold it
 * (holdFor), then commits: so the test can start the clock once the CLI is really waiting for the lock.
 */
function holdWriteLock(): { locked: Promise<void>; holdFor: (ms: number) => void; released: Promise<number> } {
  const script = `
    const Database = require('better-sqlite3');
    const { readSync } = require('node:fs');
    const db = new Database(process.argv[1]);
    db.exec('BEGIN IMMEDIATE');
    db.prepare("UPDATE facilities SET name = name WHERE id = 'wro-1'").run();
    process.stdout.write('locked\\n');
    const buf = Buffer.alloc(32);
    const ms = Number(buf.subarray(0, readSync(0, buf)).toString());
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
    db.exec('COMMIT');
    process.stdout.write('released\\n');`;
  const child = spawn(process.execPath, ['-e', script, file], { cwd: REPO, stdio: ['pipe', 'pipe', 'inherit'] });
  holder = child;
  let out = '';
  const locked = new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('locked')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`lock holder exited early (${code})`)));
  });
  const released = new Promise<number>((resolve) => {
    child.stdout!.on('data', () => {
      if (out.includes('released')) resolve(performance.now());
    });
  });
  return { locked, released, holdFor: (ms) => child.stdin!.end(String(ms)) };
}

/** The real CLI as a child whose pid we know, with when it was started and when it finished. */
function runCli(args: string[]): {
  child: ChildProcess;
  spawnedAt: number;
  result: Promise<CliResult & { at: number }>;
} {
  const spawnedAt = performance.now();
  const child = spawn(process.execPath, [BIN, ...args], {
    cwd: REPO,
    env: { ...process.env, LISTINGS_DB: file },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const result = new Promise<CliResult & { at: number }>((resolve) =>
    child.once('close', (code) => resolve({ status: code ?? -1, stdout, stderr, at: performance.now() })),
  );
  return { child, spawnedAt, result };
}

/** Resolves once the process has the database file open: from then on it is at most a statement away from the lock. */
async function hasOpened(pid: number): Promise<void> {
  await until(
    'the CLI to open the database',
    () => {
      try {
        return readdirSync(`/proc/${pid}/fd`).some((fd) => safeReadlink(`/proc/${pid}/fd/${fd}`) === file);
      } catch {
        throw new Error('the CLI exited before it opened the database');
      }
    },
    { everyMs: 10 },
  );
}

function safeReadlink(path: string): string | undefined {
  try {
    return readlinkSync(path);
  } catch {
    return undefined;
  }
}

/** Reads in a loop, one every 20 ms or so, until `stop` resolves; each result with when it finished. */
async function readWhile(stop: Promise<unknown>): Promise<{ status: number; at: number }[]> {
  let done = false;
  void stop.then(() => (done = true));
  const results: { status: number; at: number }[] = [];
  while (!done) {
    const r = await call(app.url, '/external/listings', { key: reader.key });
    results.push({ status: r.status, at: performance.now() });
    await new Promise((r) => setTimeout(r, 20));
  }
  return results;
}

describe('a write lock held by another process', () => {
  it('for 2 s: reads are served meanwhile; keys revoke waits for the lock and succeeds; the revocation holds', async () => {
    const lock = holdWriteLock();
    await lock.locked;
    const revoke = runCli(['keys', 'revoke', victim.id]);
    await hasOpened(revoke.child.pid!);
    const waitingFrom = performance.now();
    lock.holdFor(2000);
    const [reads, releasedAt] = await Promise.all([readWhile(lock.released), lock.released]);
    const duringLock = reads.filter((r) => r.at < releasedAt);
    // Served while the lock was held, not queued behind it (the lock lasts 2 s; reads take milliseconds).
    expect(duringLock.length).toBeGreaterThanOrEqual(5);
    expect(duringLock.every((r) => r.status === 200)).toBe(true);
    expect(duringLock[0]!.at - waitingFrom).toBeLessThan(1500);

    const result = await revoke.result;
    expect(result.status, result.stderr).toBe(0);
    // It waited for the lock rather than failing at once: the lock was held for 2 s after waitingFrom, so no sooner.
    expect(result.at - waitingFrom).toBeGreaterThanOrEqual(2000);
    expect(result.stdout).toMatch(/^revoked key_/);
    const after = await call(app.url, '/external/listings', { key: victim.key });
    expect(after.status).toBe(401);
    expect(JSON.parse(after.text).code).toBe('revoked_api_key');
  });

  it('for 7 s: reads are served throughout; keys revoke gives up after the 5 s busy timeout with one clear line and exit 1', async () => {
    const lock = holdWriteLock();
    await lock.locked;
    const revoke = runCli(['keys', 'revoke', victim.id]);
    await hasOpened(revoke.child.pid!);
    lock.holdFor(7000);
    const [reads, releasedAt, result] = await Promise.all([readWhile(lock.released), lock.released, revoke.result]);
    expect(reads.filter((r) => r.at < releasedAt).length).toBeGreaterThanOrEqual(10);
    expect(reads.every((r) => r.status === 200)).toBe(true);

    expect(result.status).toBe(1);
    const lines = result.stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^error: .*(locked|busy)/i);
    expect(result.stderr).not.toMatch(/\n\s+at /);
    // It did wait for the lock (busy_timeout is 5 s) before giving up. Measured from its spawn, which came before it
    // met the lock: a lower bound that a slow machine cannot fail.
    expect(result.at - revoke.spawnedAt).toBeGreaterThanOrEqual(5000);
    // Nothing was revoked, and the key still works.
    expect((await call(app.url, '/external/listings', { key: victim.key })).status).toBe(200);
  });

  it('last use recorded while the lock was held is written once it is released', async () => {
    const lock = holdWriteLock();
    await lock.locked;
    lock.holdFor(2000);
    expect((await call(app.url, '/external/listings', { key: reader.key })).status).toBe(200);
    await lock.released;
    await app.close();
    const db = openDb(file);
    const row = listKeys(db).find((k) => k.id === reader.id)!;
    db.close();
    expect(row.last_used_at).not.toBeNull();
  });
});
