// PgBouncer (Debian's package) on loopback in front of a test PostgreSQL: a config and its user list in a temp folder.
import { spawn, type ChildProcess } from 'node:child_process';
import { chownSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PGBOUNCER_PATH } from '../../tools/test-programs.js';
import { freePort, tempDir } from './fixture.ts';
import { PASSWORD, untilAccepting, type PgServer } from './postgres.ts';

export type PoolMode = 'session' | 'transaction';

export interface PgBouncer {
  /** The same database URL with PgBouncer's port in place of PostgreSQL's. */
  via(databaseUrl: string): string;
  close(): Promise<void>;
}

export interface PgBouncerOptions {
  mode?: PoolMode;
  /** Server connections per database and user (default 150); 1 puts every client on one server connection. */
  poolSize?: number;
}

/** PgBouncer refuses to run as root: under root (CI) it runs as nobody, as the PostgreSQL helper does. */
function runAs(): { uid: number; gid: number } | Record<string, never> {
  return process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : {};
}

/** The lines of pgbouncer.ini that matter, as docs/postgres.md shows them; everything else is PgBouncer's default. */
export function pgbouncerIni(o: {
  port: number;
  pgPort: number;
  authFile: string;
  mode: PoolMode;
  poolSize: number;
}): string {
  return [
    '[databases]',
    // Every database name the client asks for, on the one server: the tests make a database per test.
    `* = host=127.0.0.1 port=${o.pgPort}`,
    '[pgbouncer]',
    'listen_addr = 127.0.0.1',
    `listen_port = ${o.port}`,
    'unix_socket_dir =',
    'auth_type = scram-sha-256',
    `auth_file = ${o.authFile}`,
    `pool_mode = ${o.mode}`,
    // Session mode ties a server connection to each client connection: room for every pool and LISTEN connection.
    'max_client_conn = 400',
    `default_pool_size = ${o.poolSize}`,
    '',
  ].join('\n');
}

export async function startPgBouncer(server: PgServer, options: PgBouncerOptions = {}): Promise<PgBouncer> {
  const { mode = 'session', poolSize = 150 } = options;
  const { dir, cleanup } = tempDir('listings-pgbouncer-');
  const ids = runAs();
  const port = await freePort();
  const authFile = join(dir, 'userlist.txt');
  const ini = join(dir, 'pgbouncer.ini');
  // A plain-text password in the user list lets PgBouncer answer SCRAM to clients and to the server alike.
  writeFileSync(authFile, `"postgres" "${PASSWORD}"\n`, { mode: 0o600 });
  writeFileSync(ini, pgbouncerIni({ port, pgPort: server.port, authFile, mode, poolSize }), { mode: 0o600 });
  if ('uid' in ids) for (const f of [dir, authFile, ini]) chownSync(f, ids.uid, ids.gid);

  const child: ChildProcess = spawn(PGBOUNCER_PATH, [ini], { ...ids, stdio: ['ignore', 'ignore', 'pipe'] });
  let log = '';
  child.stderr!.on('data', (d: Buffer) => (log = (log + d.toString()).slice(-4000)));
  let exited = false;
  child.once('exit', () => (exited = true));
  child.once('error', (err) => {
    exited = true;
    log = `${err.message}: install Debian's pgbouncer (npm test's pretest does: tools/setup-test-deps.ts) or set PGBOUNCER_PATH`;
  });
  const via = (databaseUrl: string) => {
    const url = new URL(databaseUrl);
    url.port = String(port);
    return url.toString();
  };
  await untilAccepting('PgBouncer', via(server.url), () => (exited ? `pgbouncer exited: ${log}` : undefined));
  return {
    via,
    async close() {
      if (!exited && child.exitCode === null && child.signalCode === null) {
        const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()));
        // SIGINT: a safe shutdown that waits for clients; SIGTERM closes them at once, which a test's end wants.
        child.kill('SIGTERM');
        await gone;
      }
      cleanup();
    },
  };
}
