// The abuse scenario's abuser, a load generator of its own process (on the load core): closed loop, as fast as its
// connections are answered, for a number of seconds. `filter`: one key sending distinct filter values that match most
// of its facility (min_area 0-5, max_area 25-1000, two decimals, a random sort). `rent`: anonymous rental pages of one
// facility (half known codes, the rest unknown codes and facilities), half from one address and half from a botnet
// of 250 x 256 addresses. Compiled to dist/bench/abuser.mjs with the bench's servers; prints one JSON line at the end:
// { "sent", "statuses": { "200": n, ... }, "seconds" }. Usage: `node dist/bench/abuser.mjs CONFIG_JSON`.
import { Pool } from 'undici';
import { listingCodeOf, facilityIdOf } from './data.ts';
import { intIn, pick, seeded } from './random.ts';

interface AbuserConfig {
  url: string;
  mode: 'filter' | 'rent';
  seconds: number;
  connections: number;
  seed: number;
  /** filter: the key; rent: the facility's index and its number of listings. */
  key?: string;
  facility?: number;
  size?: number;
}

const config = JSON.parse(process.argv[2]!) as AbuserConfig;
const rand = seeded(config.seed);
const SORTS = ['', '&sort=price', '&sort=-price', '&sort=area', '&sort=-area', '&sort=code'];
const ONE_ADDRESS = { filter: '198.19.254.1', rent: '198.19.254.2' };

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
      ? `/rent/${facilityIdOf(config.facility!)}/${listingCodeOf(intIn(rand, 0, size - 1))}`
      : r < 0.9
        ? `/rent/${facilityIdOf(config.facility!)}/${listingCodeOf(size + intIn(rand, 0, 1_000_000))}`
        : `/rent/${facilityIdOf(90_000 + intIn(rand, 0, 9_999))}/${listingCodeOf(intIn(rand, 0, 199))}`;
  const address = n++ % 2 === 0 ? ONE_ADDRESS.rent : `198.19.${intIn(rand, 0, 249)}.${intIn(rand, 0, 255)}`;
  return { path, headers: { 'accept-encoding': 'br, gzip', 'x-forwarded-for': address } };
}

const next = config.mode === 'filter' ? filterRequest : rentRequest;
const pool = new Pool(config.url, { connections: config.connections, pipelining: 1 });
const statuses: Record<string, number> = {};
let sent = 0;
const began = performance.now();
const until = began + config.seconds * 1000;

async function loop() {
  while (performance.now() < until) {
    const r = next();
    sent++;
    try {
      const res = await pool.request({ method: 'GET', path: r.path, headers: r.headers });
      await res.body.arrayBuffer();
      statuses[res.statusCode] = (statuses[res.statusCode] ?? 0) + 1;
    } catch {
      statuses.error = (statuses.error ?? 0) + 1;
    }
  }
}

await Promise.all(Array.from({ length: config.connections }, loop));
await pool.close();
const seconds = (performance.now() - began) / 1000;
process.stdout.write(`${JSON.stringify({ sent, statuses, seconds })}\n`);
