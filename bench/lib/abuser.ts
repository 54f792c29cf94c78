// The abuse scenario's abuser, a load generator of its own process (on the load core), for a number of seconds. Modes:
// `filter`: one key sending distinct filter values that match most of its facility (min_area 0-5, max_area 25-1000,
// two decimals, a random sort), closed loop. `rent`: anonymous rental pages of one facility (half known codes, the rest
// unknown codes and facilities), half from one address and half from a botnet of 250 x 256 addresses, closed loop.
// `rotate`: one anonymous client alternating rental pages of several large facilities at a fixed rate, spread over a
// few addresses so that each stays far under the per-address page limit. `crawl`: every rental page of one facility in
// order, each from the next of 4,096 addresses, closed loop (with `once`: one pass, however long it takes). `upload`:
// multipart bodies of `bytes` to the panel's /login, one per connection at a time, again and again, each from the next
// of 256 addresses (the login limit counts per address). Compiled to
// dist/bench/abuser.mjs with the bench's servers; prints one JSON line at the end:
// { "sent", "statuses": { "200": n, "error ECONNRESET": n, ... }, "seconds" }. Usage: `node dist/bench/abuser.mjs CONFIG_JSON`.
import { request as httpRequest } from 'node:http';
import { Pool } from 'undici';
import { listingCodeOf, facilityIdOf } from './data.ts';
import { intIn, pick, seeded } from './random.ts';

export interface AbuserConfig {
  /** The API's URL; for `upload`, the panel's. */
  url: string;
  mode: 'filter' | 'rent' | 'rotate' | 'crawl' | 'upload';
  seconds: number;
  connections: number;
  seed: number;
  /** filter: the key. */
  key?: string;
  /** rent, crawl: the facility's index and its number of listings; rotate: the facilities' indices (size each). */
  facility?: number;
  facilities?: number[];
  size?: number;
  /** rotate: pages per second, spread evenly over `addresses` addresses. */
  rate?: number;
  addresses?: number;
  /** crawl: every page once, then stop (`seconds` is not a limit). */
  once?: boolean;
  /** upload: each body's size. */
  bytes?: number;
}

const config = JSON.parse(process.argv[2]!) as AbuserConfig;
const rand = seeded(config.seed);
const SORTS = ['', '&sort=price', '&sort=-price', '&sort=area', '&sort=-area', '&sort=code'];
const ONE_ADDRESS = { filter: '198.19.254.1', rent: '198.19.254.2' };
const page = (facility: number, j: number) => `/rent/${facilityIdOf(facility)}/${listingCodeOf(j)}`;
const anonymous = (address: string) => ({ 'accept-encoding': 'br, gzip', 'x-forwarded-for': address });

function filterRequest() {
  const min = (rand() * 5).toFixed(2);
  const max = (25 + rand() * 975).toFixed(2);
  return {
    path: `/external/listings?min_area=${min}&max_area=${max}${pick(rand, SORTS)}`,
    headers: { 'x-api-key': config.key!, 'accept-encoding': 'br, gzip', 'x-forwarded-for': ONE_ADDRESS.filter },
  };
}

let n = 0;
function rentRequest() {
  const size = config.size!;
  const r = rand();
  const path =
    r < 0.5
      ? page(config.facility!, intIn(rand, 0, size - 1))
      : r < 0.9
        ? page(config.facility!, size + intIn(rand, 0, 1_000_000))
        : page(90_000 + intIn(rand, 0, 9_999), intIn(rand, 0, 199));
  const address = n++ % 2 === 0 ? ONE_ADDRESS.rent : `198.19.${intIn(rand, 0, 249)}.${intIn(rand, 0, 255)}`;
  return { path, headers: anonymous(address) };
}

function rotateRequest() {
  const facilities = config.facilities!;
  const k = n++;
  return {
    path: page(facilities[k % facilities.length]!, intIn(rand, 0, config.size! - 1)),
    headers: anonymous(`198.19.252.${k % config.addresses!}`),
  };
}

function crawlRequest() {
  const k = n++;
  return { path: page(config.facility!, k % config.size!), headers: anonymous(`198.18.${(k >> 8) & 15}.${k & 255}`) };
}

const next =
  config.mode === 'filter'
    ? filterRequest
    : config.mode === 'rent'
      ? rentRequest
      : config.mode === 'rotate'
        ? rotateRequest
        : crawlRequest;
const statuses: Record<string, number> = {};
const count = (status: string | number) => (statuses[status] = (statuses[status] ?? 0) + 1);
let sent = 0;
const began = performance.now();
const until = began + config.seconds * 1000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const going = () => (config.once ? n < config.size! : performance.now() < until);

async function loop(pool: Pool) {
  // A paced client (rotate) sends its next request one interval after the last: a pause (SIGSTOP) is not caught up.
  const interval = config.rate ? 1000 / config.rate : 0;
  let due = performance.now();
  while (going()) {
    if (interval > 0) {
      await sleep(due - performance.now());
      due = Math.max(due + interval, performance.now());
    }
    const r = next();
    sent++;
    try {
      const res = await pool.request({ method: 'GET', path: r.path, headers: r.headers });
      await res.body.arrayBuffer();
      count(res.statusCode);
    } catch {
      count('error');
    }
  }
}

/** One multipart body of config.bytes to /login; resolves with its status, or the error that ended it first. */
function upload(k: number): Promise<string | number> {
  const boundary = 'bench-upload-boundary';
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="import.json"\r\nContent-Type: application/json\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const chunk = Buffer.alloc(1024 * 1024, 0x20);
  return new Promise((resolve) => {
    const req = httpRequest(`${config.url}/login`, {
      method: 'POST',
      agent: false,
      headers: {
        'content-type': `multipart/form-data; boundary=${boundary}`,
        'content-length': String(config.bytes!),
        origin: config.url,
        'x-forwarded-for': `198.19.251.${k & 255}`,
      },
    });
    req.once('response', (res) => {
      resolve(res.statusCode ?? 0);
      res.resume();
      req.destroy();
    });
    req.once('error', (err: NodeJS.ErrnoException) => resolve(`error ${err.code ?? err.message}`));
    let left = config.bytes! - head.length - tail.length;
    const write = () => {
      while (left > 0 && !req.destroyed) {
        const piece = left >= chunk.length ? chunk : chunk.subarray(0, left);
        left -= piece.length;
        if (!req.write(piece)) return void req.once('drain', write);
      }
      if (!req.destroyed) req.end(tail);
    };
    req.write(head);
    write();
  });
}

async function uploadLoop() {
  while (performance.now() < until) {
    count(await upload(sent++));
  }
}

if (config.mode === 'upload') await Promise.all(Array.from({ length: config.connections }, uploadLoop));
else {
  const pool = new Pool(config.url, { connections: config.connections, pipelining: 1 });
  await Promise.all(Array.from({ length: config.connections }, () => loop(pool)));
  await pool.close();
}
const seconds = (performance.now() - began) / 1000;
process.stdout.write(`${JSON.stringify({ sent, statuses, seconds })}\n`);
