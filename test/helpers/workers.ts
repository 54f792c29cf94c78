// Requests to `listings serve --workers N`, each on a connection of its own so that the cluster's round robin hands it to
// the next worker; each answer's X-Request-Id starts with a prefix chosen once per process, which tells the workers apart.
import { execFileSync } from 'node:child_process';
import { request } from 'node:http';

const LIST = '/external/listings';

export interface Answer {
  status: number;
  worker: string;
  etag: string | undefined;
  body: string;
}

/** One GET of the list on a connection of its own. */
export function fresh(base: string, key: string, headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(`${base}${LIST}`, { agent: false, headers: { 'x-api-key': key, ...headers } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (body += d));
      res.on('end', () => {
        const id = String(res.headers['x-request-id'] ?? '');
        resolve({ status: res.statusCode!, worker: id.slice(0, 24), etag: res.headers.etag, body });
      });
    });
    req.on('error', reject);
    req.end();
  });
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
