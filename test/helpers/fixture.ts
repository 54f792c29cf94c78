// Test fixtures that use the real parts: a temp SQLite file, the real CLI, the real server on a free port.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startApp, type App, type AppOptions } from '../../server/app.ts';
import { loadConfig } from '../../server/config.ts';
import { REPO_ROOT } from '../../server/repo.ts';
import { parseImport } from '../../server/domain/import.ts';
import { openDb, type Db } from '../../server/store/db.ts';
import { applyImport } from '../../server/store/facilities.ts';
import { createKey } from '../../server/store/keys.ts';
import type { ImportFile } from '../../server/schemas/import.ts';
import { freePort } from '../../tools/launch.ts';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';

export { freePort };
import type { Io } from '../../cli/io.ts';
import { runCli } from '../../cli/program.ts';
import { recordKey, recordKeysIn, recordLog } from './capture.ts';

export const REPO = REPO_ROOT;
export const BIN = join(REPO, 'bin', 'listings.js');
export const DEMO_DATA = join(REPO, 'demo', 'data.json');

/**
 * A fresh folder removed by the returned cleanup. The removal retries for about a second (rmSync waits 20, 40, ... ms, on
 * ENOTEMPTY and the like): a process that just exited can leave children still writing into it, as Chromium's helpers
 * did into its profile after the browser itself had exited (test/lighthouse.test.ts now also awaits its whole group).
 */
export function tempDir(prefix = 'listings-test-'): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 20 }) };
}

export function demoImport(): ImportFile {
  return parseImport(readFileSync(DEMO_DATA, 'utf8'), DEMO_DATA);
}

/** The demo import file as plain JSON, for tests that change it before importing. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function demoJson(): { facilities: any[] } {
  return JSON.parse(readFileSync(DEMO_DATA, 'utf8'));
}

/** A 10 % first-month promotion for everyone that starts at `startsMs` (whole seconds) and never ends. */
export function promotionStarting(code: string, title: string, startsMs: number) {
  return {
    code,
    title,
    terms: null,
    kind: 'percent',
    value: 10,
    from_period: 1,
    to_period: 1,
    starts_at: new Date(startsMs).toISOString().replace('.000', ''),
    ends_at: null,
    new_tenants_only: false,
  };
}

export function writeJson(dir: string, name: string, value: unknown): string {
  const file = join(dir, name);
  writeFileSync(file, JSON.stringify(value, null, 2));
  return file;
}

/** The bytes of a database as another process would find them: the file followed by its -wal, if any. */
export function dbBytes(file: string): Buffer {
  const wal = `${file}-wal`;
  return Buffer.concat([readFileSync(file), existsSync(wal) ? readFileSync(wal) : Buffer.alloc(0)]);
}

/**
 * For each test of the file: a temporary folder and the path of a database file in it (not created yet), handed to
 * `use`; the folder is removed after.
 */
export function dbPathEachTest(use: (t: { dir: string; file: string }) => void): void {
  let cleanup: (() => void) | undefined;
  beforeEach(() => {
    const made = tempDir();
    cleanup = made.cleanup;
    use({ dir: made.dir, file: join(made.dir, 'listings.db') });
  });
  afterEach(() => cleanup?.());
}

/** For each test of the file: a temporary folder with the demo database in it, handed to `use`; closed and removed after. */
export function demoDbEachTest(use: (t: { dir: string; db: Db; file: string }) => void): void {
  let made: { dir: string; db: Db; cleanup: () => void } | undefined;
  beforeEach(() => {
    const { dir, cleanup } = tempDir();
    const { db, file } = demoDb(dir);
    made = { dir, db, cleanup };
    use({ dir, db, file });
  });
  afterEach(() => {
    made?.db.close();
    made?.cleanup();
  });
}

/**
 * For the tests of the file or describe it is called in: a temporary folder with the demo database in it, handed to
 * `use` (which may add to it, such as keys) and closed after it; the folder is removed after the last test.
 */
export function demoDbForAll(use: (t: { dir: string; db: Db; file: string }) => void): void {
  let cleanup: (() => void) | undefined;
  beforeAll(() => {
    const made = tempDir();
    cleanup = made.cleanup;
    const { db, file } = demoDb(made.dir);
    try {
      use({ dir: made.dir, db, file });
    } finally {
      db.close();
    }
  });
  afterAll(() => cleanup?.());
}

/** A temp database file with the demo data imported. */
export function demoDb(dir: string, data: ImportFile = demoImport()): { file: string; db: Db } {
  const file = join(dir, 'listings.db');
  const db = openDb(file);
  applyImport(db, data);
  return { file, db };
}

export function issueKey(
  db: Db,
  facilityId: string,
  extra: Parameters<typeof createKey>[1] extends infer T ? Partial<T> : never = {},
): { key: string; id: string } {
  const { key, info } = createKey(db, { facilityId, prefix: 'svc', label: 'test', ...extra });
  recordKey(key);
  return { key, id: info.id };
}

/** An Io for runCli in-process: output collected in memory, stdin from a string. */
export function bufferIo(env: NodeJS.ProcessEnv = {}, stdin = ''): Io & { stdout: () => string; stderr: () => string } {
  const out: string[] = [];
  const err: string[] = [];
  return {
    out: (t) => {
      recordKeysIn(t);
      out.push(t.endsWith('\n') ? t : `${t}\n`);
    },
    err: (t) => err.push(t.endsWith('\n') ? t : `${t}\n`),
    readStdin: async () => stdin,
    env,
    isTTY: false,
    stdout: () => out.join(''),
    stderr: () => err.join(''),
  };
}

/** The CLI in this process (fast), against LISTINGS_DB = dbFile: exit code and output as an operator would see them. */
export async function cliInProcess(
  dbFile: string,
  args: string[],
): Promise<{ code: number; stdout: string; stderr: string }> {
  const io = bufferIo({ LISTINGS_DB: dbFile });
  const code = await runCli(args, io);
  return { code, stdout: io.stdout(), stderr: io.stderr() };
}

export interface CliResult {
  status: number;
  stdout: string;
  stderr: string;
}

/** Runs the real `listings` binary in a child process (what an operator types). */
export function cli(args: string[], opts: { env?: NodeJS.ProcessEnv; input?: string } = {}): CliResult {
  const r = spawnSync(process.execPath, [BIN, ...args], {
    cwd: REPO,
    env: { ...process.env, ...opts.env },
    input: opts.input,
    encoding: 'utf8',
    timeout: 60_000,
  });
  recordKeysIn(r.stdout ?? '');
  return { status: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

/** The same as cli(), without blocking this process: for runs that may go in parallel. */
export function cliAsync(args: string[], opts: { env?: NodeJS.ProcessEnv; input?: string } = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: REPO,
      env: { ...process.env, ...opts.env },
      timeout: 60_000,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.once('error', reject);
    child.once('close', (code) => {
      recordKeysIn(stdout);
      resolve({ status: code ?? -1, stdout, stderr });
    });
    child.stdin.end(opts.input ?? '');
  });
}

/** Starts the real server in this process on a free port over the given database file. */
export async function startTestServer(
  dbFile: string,
  extra: Partial<AppOptions> = {},
): Promise<App & { logs: string[] }> {
  const logs: string[] = [];
  const config = loadConfig({ db: dbFile, port: await freePort(), host: '127.0.0.1' }, {});
  // Every log line also goes to the run's key-leak check (test/helpers/global-setup.ts).
  const logWrite = (t: string) => {
    recordLog(t);
    if (extra.logWrite) extra.logWrite(t);
    else logs.push(t);
  };
  const app = await startApp({ config, ...extra, logWrite });
  return Object.assign(app, { logs });
}

/** A temporary database with `data` (the demo's by default), one key for `facilityId`, and the server over it in this process. */
export async function startKeyedServer(facilityId: string, data?: ImportFile, extra: Partial<AppOptions> = {}) {
  const { dir, cleanup } = tempDir();
  const { db, file } = demoDb(dir, data);
  const { key } = issueKey(db, facilityId);
  db.close();
  const app = await startTestServer(file, extra);
  const close = async () => {
    await app.close();
    cleanup();
  };
  return { app, url: app.url, key, close };
}

/**
 * The demo data in a temporary database, a key for wro-1 (`reader`) and `listings serve --quiet` over it on a free port,
 * as tests that change the data from other processes need. `close()` stops the server and removes the folder.
 */
export async function servedDemo(serveArgs: string[] = [], readerLimits: Parameters<typeof issueKey>[2] = {}) {
  const { dir, cleanup } = tempDir();
  const { db, file } = demoDb(dir);
  const reader = issueKey(db, 'wro-1', readerLimits);
  const env = { LISTINGS_DB: file };
  const port = await freePort();
  const server = spawnServer(['serve', '--port', String(port), '--quiet', ...serveArgs], env);
  const base = await server.ready;
  const close = async () => {
    await server.stop();
    if (db.open) db.close();
    cleanup();
  };
  return { dir, db, file, env, reader, server, base, port, close };
}
export type ServedDemo = Awaited<ReturnType<typeof servedDemo>>;

/** M-07's gross price in a list or a detail body of the demo facility wro-1. */
export function grossOfM07(body: {
  price?: { gross: number };
  listings?: { code: string; price: { gross: number } }[];
}): number {
  return body.listings ? body.listings.find((l) => l.code === 'M-07')!.price.gross : body.price!.gross;
}

/** Starts `listings serve` as a child process; resolves with its URL once it listens. */
export function spawnServer(args: string[], env: NodeJS.ProcessEnv = {}) {
  const child = spawn(process.execPath, [BIN, ...args], {
    cwd: REPO,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => {
    recordLog(d.toString());
    stdout += d.toString();
  });
  const ready = new Promise<string>((resolve, reject) => {
    child.stderr.on('data', (d: Buffer) => {
      recordLog(d.toString());
      stderr += d.toString();
      const m = /at (http:\/\/[^\s]+)/.exec(stderr);
      if (m) resolve(m[1]!);
    });
    child.once('exit', (code) => reject(new Error(`server exited with ${code}: ${stderr}`)));
  });
  /** SIGTERM, then wait for the exit (at once if it has already exited). */
  const stop = async (): Promise<void> => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
  };
  return { child, ready, stop, output: () => ({ stdout, stderr }) };
}
