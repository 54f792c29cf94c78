// Requests to `listings serve --workers N`, each on a connection of its own so that the cluster's round robin hands it to
// the next worker; the process that holds the server's end of the connection (Linux's /proc) tells the workers apart.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { request } from 'node:http';
import type { Socket } from 'node:net';

const LIST = '/external/listings';

export interface Answer {
  status: number;
  worker: string;
  etag: string | undefined;
  body: string;
}

/**
 * One GET of the list on a connection of its own. On a loaded machine the server's end is now and then gone from /proc
 * before it is looked up (the worker unknown): the request is made again on a new connection, at most three times.
 */
export async function fresh(base: string, key: string, headers: Record<string, string> = {}): Promise<Answer> {
  let answer = await freshOnce(base, key, headers);
  for (let tries = 1; answer.worker === 'unknown' && tries < 3; tries++) answer = await freshOnce(base, key, headers);
  return answer;
}

function freshOnce(base: string, key: string, headers: Record<string, string>): Promise<Answer> {
  return new Promise((resolve, reject) => {
    // Kept alive, so that the server's end is still open when the answer has come; closed here once it is known.
    const options = { agent: false, headers: { 'x-api-key': key, connection: 'keep-alive', ...headers } };
    const req = request(`${base}${LIST}`, options, (res) => {
      const { socket } = res;
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (body += d));
      res.on('end', () => {
        const worker = workerHolding(socket);
        socket.destroy();
        resolve({ status: res.statusCode!, worker, etag: res.headers.etag, body });
      });
    });
    req.on('error', reject);
    req.end();
  });
}

/** The pid of the `listings` process that holds the server's end of this client socket, found by its inode. */
function workerHolding(socket: Socket): string {
  const hex = (port: number) => port.toString(16).toUpperCase().padStart(4, '0');
  const [server, client] = [hex(socket.remotePort!), hex(socket.localPort!)];
  const row = ['/proc/net/tcp', '/proc/net/tcp6']
    .flatMap((file) => readFileSync(file, 'utf8').split('\n').slice(1))
    .map((line) => line.trim().split(/\s+/))
    .find((cols) => cols[1]?.endsWith(`:${server}`) && cols[2]?.endsWith(`:${client}`));
  const socketLink = `socket:[${row?.[9]}]`;
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      if (!readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('listings.js')) continue;
      if (readdirSync(`/proc/${pid}/fd`).some((fd) => readlinkSync(`/proc/${pid}/fd/${fd}`) === socketLink)) return pid;
    } catch {
      // A process that ended meanwhile, or one not ours to read.
    }
  }
  return 'unknown';
}

export async function many(base: string, key: string, n: number, headers: Record<string, string> = {}) {
  const out: Answer[] = [];
  for (let i = 0; i < n; i++) out.push(await fresh(base, key, headers));
  return out;
}

export const workersOf = (answers: Answer[]) => new Set(answers.map((a) => a.worker));

/** The primary's worker processes. Under tsx (sources newer than the bundle) it may also have an esbuild child: not counted. */
export const childrenOf = (pid: number) =>
  execFileSync('ps', ['-o', 'pid=,args=', '--ppid', String(pid)], { encoding: 'utf8' })
    .split('\n')
    .map((l) => /^\s*(\d+)\s+(.*)$/.exec(l))
    .filter((m) => m !== null && m[2]!.includes('listings.js'))
    .map((m) => Number(m![1]));

/** How many connections to `port` these processes hold open: the requests they have accepted and not yet answered. */
export function connectionsHeldBy(pids: number[], port: number): number {
  const hex = port.toString(16).toUpperCase().padStart(4, '0');
  const inodes = new Set(
    ['/proc/net/tcp', '/proc/net/tcp6']
      .flatMap((file) => readFileSync(file, 'utf8').split('\n').slice(1))
      .map((line) => line.trim().split(/\s+/))
      .filter((cols) => cols[1]?.endsWith(`:${hex}`) && cols[3] === '01')
      .map((cols) => `socket:[${cols[9]}]`),
  );
  let held = 0;
  for (const pid of pids) {
    try {
      for (const fd of readdirSync(`/proc/${pid}/fd`)) if (inodes.has(readlinkSync(`/proc/${pid}/fd/${fd}`))) held++;
    } catch {
      // A process that ended meanwhile.
    }
  }
  return held;
}
