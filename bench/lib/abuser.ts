// The abuse scenario's clients, one process each: `node --import tsx bench/lib/abuser.ts CONFIG_JSON` runs one mode and
// prints one JSON line at the end. The partner is timed from each request's due time (open loop): a stall shows.
import { Agent, get, request as httpRequest } from 'node:http';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Pool } from 'undici';
import { facilityIdOf, listingCodeOf, listingIdIn } from './data.ts';
import { intIn, pick, seeded } from './random.ts';

export interface AbuserConfig {
  /** The API's URL; for `upload`, the panel's. */
  url: string;
  mode: 'filter' | 'rent' | 'rotate' | 'crawl' | 'upload' | 'partner';
  seconds: number;
  connections: number;
  seed: number;
  /** filter: the key; partner: its keys with their facilities and sizes. */
  key?: string;
  keys?: { key: string; facility: number; size: number }[];
  /** rent, crawl: the facility's index and size; rotate: the facilities (`size` each). */
  facility?: number;
  facilities?: number[];
  size?: number;
  /** rotate, partner: requests per second. */
  rate?: number;
  once?: boolean;
}

/** What an abuser sent and got; the partner also each answer's latency and due time (epoch ms). */
export interface AbuserRun {
  sent: number;
  statuses: Record<string, number>;
  seconds: number;
  latencies?: number[];
  due?: number[];
}

const config = JSON.parse(process.argv[2]!) as AbuserConfig;
const rand = seeded(config.seed);
const statuses: Record<string, number> = {};
const count = (status: string | number) => (statuses[status] = (statuses[status] ?? 0) + 1);
const page = (facility: number, j: number) => `/rent/${facilityIdOf(facility)}/${listingCodeOf(j)}`;
const anonymous = (address: string) => ({ 'accept-encoding': 'br, gzip', 'x-forwarded-for': address });
const SORTS = ['', '&sort=price', '&sort=-price', '&sort=area', '&sort=-area', '&sort=code'];
let n = 0;
let sent = 0;

/** Each closed-loop mode's next request. */
const next: Record<string, () => { path: string; headers: Record<string, string> }> = {
  // One key sending distinct filter values that match most of its facility.
  filter: () => ({
    path: `/external/listings?min_area=${(rand() * 5).toFixed(2)}&max_area=${(25 + rand() * 975).toFixed(2)}${pick(rand, SORTS)}`,
    headers: { 'x-api-key': config.key!, 'accept-encoding': 'br, gzip', 'x-forwarded-for': '198.19.254.1' },
  }),
  // Anonymous rental pages of one facility (half unknown codes or facilities), half from one address, half a botnet's.
  rent: () => {
    const [size, x] = [config.size!, rand()];
    const j = x < 0.5 ? intIn(rand, 0, size - 1) : size + intIn(rand, 0, 1_000_000);
    const path = x < 0.9 ? page(config.facility!, j) : page(90_000 + intIn(rand, 0, 9_999), intIn(rand, 0, 199));
    return {
      path,
      headers: anonymous(n++ % 2 ? `198.19.${intIn(rand, 0, 249)}.${intIn(rand, 0, 255)}` : '198.19.254.2'),
    };
  },
  // Pages alternating over large facilities (paced by `rate`), each of 3 addresses far under the page limit.
  rotate: () => {
    const k = n++;
    const path = page(config.facilities![k % config.facilities!.length]!, intIn(rand, 0, config.size! - 1));
    return { path, headers: anonymous(`198.19.252.${k % 3}`) };
  },
  // Every page of one facility in order, from 4,096 addresses in turn.
  crawl: () => {
    const k = n++;
    return { path: page(config.facility!, k % config.size!), headers: anonymous(`198.18.${(k >> 8) & 15}.${k & 255}`) };
  },
};

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const began = performance.now();
const until = began + config.seconds * 1000;

/** A closed loop over one pool; a paced client (rotate) sends one interval after the last, not catching up a pause. */
async function closedLoop() {
  const pool = new Pool(config.url, { connections: config.connections });
  const interval = config.rate ? 1000 / config.rate : 0;
  let due = performance.now();
  const going = () => (config.once ? n < config.size! : performance.now() < until);
  const loop = async () => {
    while (going()) {
      if (interval > 0) await sleep((due = Math.max(due + interval, performance.now())) - performance.now());
      const r = next[config.mode]!();
      sent++;
      try {
        const res = await pool.request({ method: 'GET', ...r });
        await res.body.arrayBuffer();
        count(res.statusCode);
      } catch {
        count('error');
      }
    }
  };
  await Promise.all(Array.from({ length: config.connections }, loop));
  await pool.close();
}

/** Multipart bodies of 150 MB to /login, one per connection at a time, each from the next of 256 addresses. */
async function uploads() {
  const [bytes, boundary, chunk] = [150 * 2 ** 20, 'bench-upload-boundary', Buffer.alloc(2 ** 20, 0x20)];
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="import.json"\r\n\r\n`;
  const tail = `\r\n--${boundary}--\r\n`;
  async function* body() {
    yield head;
    for (let left = bytes - head.length - tail.length; left > 0; left -= chunk.length) yield chunk.subarray(0, left);
    yield tail;
  }
  const upload = (k: number) =>
    new Promise<string | number>((resolve) => {
      const headers = { 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': String(bytes) };
      const address = { origin: config.url, 'x-forwarded-for': `198.19.251.${k & 255}` };
      const req = httpRequest(`${config.url}/login`, {
        method: 'POST',
        agent: false,
        headers: { ...headers, ...address },
      });
      req.once('response', (res) => (resolve(res.statusCode ?? 0), res.resume(), req.destroy()));
      req.on('error', (err: NodeJS.ErrnoException) => resolve(`error ${err.code ?? err.message}`));
      pipeline(Readable.from(body()), req).catch(() => undefined); // the request's own error says why
    });
  const loop = async () => {
    while (performance.now() < until) count(await upload(++sent));
  };
  await Promise.all(Array.from({ length: config.connections }, loop));
}

/** The partner: list, detail, list 304, detail 304 over its keys, a second's warm-up, then `rate` a second. */
async function partner(): Promise<Pick<AbuserRun, 'latencies' | 'due'>> {
  const agent = new Agent({ keepAlive: true, maxSockets: 256, timeout: 4_000 }); // below the server's 5 s
  const send = (r: { path: string; headers: Record<string, string> }) =>
    new Promise<{ status: number | string; etag?: string }>((resolve) => {
      const req = get(`${config.url}${r.path}`, { headers: r.headers, agent, timeout: 30_000 }, (res) => {
        res.resume().on('end', () => resolve({ status: res.statusCode!, etag: res.headers.etag }));
      });
      req.on('timeout', () => req.destroy(new Error('timeout')));
      req.on('error', (err: NodeJS.ErrnoException) => resolve({ status: `error ${err.code ?? err.message}` }));
    });
  const requests: { path: string; headers: Record<string, string> }[] = [];
  for (let i = 0; i < 400; i++) {
    const k = config.keys![i % config.keys!.length]!;
    const kind = Math.floor(i / config.keys!.length) % 4;
    const path =
      kind % 2 ? `/external/listings/${listingIdIn(k.facility, intIn(rand, 0, k.size - 1))}` : '/external/listings';
    const headers: Record<string, string> = {
      'x-api-key': k.key,
      'accept-encoding': 'br, gzip',
      'x-forwarded-for': '198.19.253.1',
    };
    if (kind >= 2) headers['if-none-match'] = (await send({ path, headers })).etag ?? '';
    requests.push({ path, headers });
  }
  const latencies: number[] = [];
  const due: number[] = [];
  const run = async (seconds: number, record: boolean) => {
    const start = performance.now();
    const inFlight: Promise<void>[] = [];
    for (let i = 0; i < config.rate! * seconds; i++) {
      const at = start + (i * 1000) / config.rate!;
      if (at > performance.now()) await sleep(at - performance.now());
      sent++;
      inFlight.push(
        send(requests[i % requests.length]!).then(({ status }) => {
          if (!record) return;
          count(status);
          latencies.push(performance.now() - at);
          due.push(performance.timeOrigin + at);
        }),
      );
    }
    await Promise.all(inFlight);
  };
  await run(1, false);
  process.stdout.write('{"warm":true}\n');
  await run(config.seconds, true);
  agent.destroy();
  return { latencies, due };
}

/** The result line, then exit: at the end, or when the bench ends an abuser early (SIGTERM). */
function report(extra: Partial<AbuserRun>): never {
  const result: AbuserRun = { sent, statuses, seconds: (performance.now() - began) / 1000, ...extra };
  process.stdout.write(`${JSON.stringify(result)}\n`); // synchronous on a pipe
  process.exit(0);
}
process.on('SIGTERM', () => report({}));
process.stdout.write('{"ready":true}\n'); // started: the bench may stop it now and count on it when it goes on
if (config.mode === 'partner') report(await partner());
await (config.mode === 'upload' ? uploads() : closedLoop());
report({});
