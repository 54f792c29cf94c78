// `npm run demo:compare`: how a comparison site's back end consumes the API: undici, one key per facility, ETag revalidation.
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { Agent, request, type Dispatcher } from 'undici';
import { majorUnits } from '../shared/format.ts';
import { REPO_ROOT } from '../server/repo.ts';
import { ListResponse, Problem } from '../shared/listing.ts';
import type { DemoKeysFile } from '../cli/demo-site.ts';

const DEMO_KEYS = join(REPO_ROOT, 'data', 'demo-keys.json');
const DEFAULT_URL = 'http://127.0.0.1:8787';

class CompareError extends Error {
  override name = 'CompareError';
}

interface Settings {
  base: string;
  keys: [facility: string, key: string][];
  from: string;
}

/** LISTINGS_KEYS="wro-1=svc_live_...,ber-1=..." and LISTINGS_URL, or else the running demo's data/demo-keys.json. */
function settingsOf(env: NodeJS.ProcessEnv, keysFile = DEMO_KEYS): Settings {
  let keys: [string, string][];
  let base = env.LISTINGS_URL;
  let from = 'LISTINGS_KEYS';
  if (env.LISTINGS_KEYS) {
    keys = env.LISTINGS_KEYS.split(',')
      .map((pair) => pair.trim())
      .filter(Boolean)
      .map((pair) => {
        const [facility, key, ...rest] = pair.split('=');
        if (!facility || !key || rest.length > 0)
          throw new CompareError(`LISTINGS_KEYS: "${pair.slice(0, 24)}" is not facility=key (e.g. wro-1=svc_live_...)`);
        return [facility.trim(), key.trim()];
      });
  } else {
    let file: DemoKeysFile;
    try {
      file = JSON.parse(readFileSync(keysFile, 'utf8')) as DemoKeysFile;
    } catch (err) {
      const missing = (err as NodeJS.ErrnoException).code === 'ENOENT';
      throw new CompareError(
        missing
          ? `no keys: set LISTINGS_KEYS="wro-1=svc_live_...,ber-1=..." or run \`npm start\` first (it writes ${keysFile})`
          : `${keysFile}: not a demo keys file (${(err as Error).message})`,
      );
    }
    keys = Object.entries(file.keys ?? {});
    base ??= file.public_url;
    from = relative(process.cwd(), keysFile).startsWith('..') ? keysFile : relative(process.cwd(), keysFile);
  }
  if (keys.length === 0) throw new CompareError(`${from}: no keys in it`);
  base = (base || DEFAULT_URL).replace(/\/+$/, '');
  if (!/^https?:\/\/[^/]+/.test(base)) throw new CompareError(`LISTINGS_URL: "${base}" is not an http(s) URL`);
  return { base, keys, from };
}

interface Cached {
  etag: string;
  list: ListResponse;
}

interface Fetched {
  facility: string;
  status: number;
  bytes: number;
  list: ListResponse;
}

/** GET /external/listings, sending If-None-Match when a copy is cached; a 304 answers from the cache. */
async function fetchList(
  dispatcher: Dispatcher,
  base: string,
  facility: string,
  key: string,
  cache: Map<string, Cached>,
): Promise<Fetched> {
  const cached = cache.get(facility);
  const headers: Record<string, string> = { 'x-api-key': key, accept: 'application/json' };
  if (cached) headers['if-none-match'] = cached.etag;
  let res: Dispatcher.ResponseData;
  try {
    res = await request(`${base}/external/listings`, {
      dispatcher,
      headers,
      headersTimeout: 10_000,
      bodyTimeout: 10_000,
    });
  } catch (err) {
    throw new CompareError(reachError(base, err));
  }
  if (res.statusCode === 304 && cached) {
    await res.body.dump();
    return { facility, status: 304, bytes: 0, list: cached.list };
  }
  const text = await res.body.text();
  if (res.statusCode !== 200) {
    const problem = Problem.safeParse(safeJson(text));
    const code = problem.success ? problem.data.code : `http_${res.statusCode}`;
    const hint =
      res.statusCode === 401
        ? ': the key is missing, wrong or revoked (restart `npm start` for fresh demo keys, or fix LISTINGS_KEYS)'
        : problem.success
          ? `: ${problem.data.detail}`
          : '';
    throw new CompareError(`${facility}: the API answered ${res.statusCode} ${code}${hint}`);
  }
  const parsed = ListResponse.safeParse(safeJson(text));
  if (!parsed.success)
    throw new CompareError(
      `${facility}: the answer is not a listing list (${parsed.error.issues[0]?.message ?? 'invalid'})`,
    );
  const etag = res.headers.etag;
  if (typeof etag === 'string') cache.set(facility, { etag, list: parsed.data });
  return { facility, status: 200, bytes: Buffer.byteLength(text), list: parsed.data };
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function reachError(base: string, err: unknown): string {
  const e = err as { code?: string; cause?: { code?: string }; errors?: { code?: string }[]; message?: string };
  const code = e.code ?? e.cause?.code ?? e.errors?.[0]?.code;
  if (code === 'ECONNREFUSED')
    return `cannot connect to ${base}: is the server running? Start it with \`npm start\` (or set LISTINGS_URL)`;
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return `cannot resolve the host of ${base} (LISTINGS_URL)`;
  if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_CONNECT_TIMEOUT')
    return `${base} did not answer within 10 s`;
  return `cannot reach ${base}: ${code ?? e.message ?? String(err)}`;
}

interface Row {
  facility: string;
  unit: string;
  area: string;
  price: string;
  perM2: string;
  free: string;
  currency: string;
  perM2Minor: number;
}

function rowsOf(lists: ListResponse[]): Row[] {
  return lists
    .flatMap(({ facility, listings }) =>
      listings.map((l) => {
        const perM2Minor = Math.round(l.price.gross / l.area_m2);
        const period = l.price.period === 'P1M' ? '' : ` / ${l.price.period}`;
        return {
          facility: facility.name,
          unit: `${l.code}  ${l.title}`,
          area: `${l.area_m2} m²`,
          price: `${l.price.currency} ${majorUnits(l.price.gross, l.price.currency)}${period}`,
          perM2: `${l.price.currency} ${majorUnits(perM2Minor, l.price.currency)}`,
          free: l.free_units === 0 ? 'sold out' : String(l.free_units),
          currency: l.price.currency,
          perM2Minor,
        };
      }),
    )
    .sort(
      (a, b) => a.currency.localeCompare(b.currency) || a.perM2Minor - b.perM2Minor || a.unit.localeCompare(b.unit),
    );
}

const COLUMNS: { key: keyof Row; title: string; right?: boolean }[] = [
  { key: 'facility', title: 'FACILITY' },
  { key: 'unit', title: 'UNIT' },
  { key: 'area', title: 'AREA', right: true },
  { key: 'price', title: 'PRICE / MONTH', right: true },
  { key: 'perM2', title: 'PER M²', right: true },
  { key: 'free', title: 'FREE', right: true },
];

/** Aligned columns (numbers right-aligned), a blank line between currencies: prices compare only within one. */
function formatTable(rows: Row[]): string {
  const widths = COLUMNS.map((c) => Math.max(c.title.length, ...rows.map((r) => String(r[c.key]).length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => (COLUMNS[i]!.right ? cell.padStart(widths[i]!) : cell.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd();
  const out = [line(COLUMNS.map((c) => c.title))];
  rows.forEach((r, i) => {
    if (i > 0 && rows[i - 1]!.currency !== r.currency) out.push('');
    out.push(line(COLUMNS.map((c) => String(r[c.key]))));
  });
  return out.join('\n');
}

async function pass(
  dispatcher: Dispatcher,
  s: Settings,
  cache: Map<string, Cached>,
): Promise<{ fetched: Fetched[]; line: string }> {
  const started = performance.now();
  const fetched = await Promise.all(
    s.keys.map(([facility, key]) => fetchList(dispatcher, s.base, facility, key, cache)),
  );
  const ms = Math.round(performance.now() - started);
  const kb = (fetched.reduce((n, f) => n + f.bytes, 0) / 1024).toFixed(1);
  const statuses = fetched.map((f) => `${f.facility} ${f.status}`).join(', ');
  return { fetched, line: `${statuses} · ${kb} KB of bodies in ${ms} ms` };
}

async function main(): Promise<void> {
  const s = settingsOf(process.env);
  const out = (text: string) => process.stdout.write(`${text}\n`);
  const dispatcher = new Agent({ connect: { timeout: 5_000 } });
  try {
    const cache = new Map<string, Cached>();
    out(`GET ${s.base}/external/listings with ${s.keys.length} keys (from ${s.from})`);
    const first = await pass(dispatcher, s, cache);
    out(`  first pass:   ${first.line}`);
    // A comparison site polls: the second pass sends If-None-Match and gets 304 Not Modified, no body, while nothing changed.
    const second = await pass(dispatcher, s, cache);
    out(
      `  revalidated:  ${second.line}${second.fetched.every((f) => f.status === 304) ? ' (If-None-Match: every cached copy is still current)' : ''}`,
    );
    out('');
    out(formatTable(rowsOf(second.fetched.map((f) => f.list))));
  } finally {
    await dispatcher.close();
  }
}

try {
  await main();
} catch (err) {
  if (!(err instanceof CompareError)) throw err;
  console.error(`demo:compare: ${err.message}`);
  process.exitCode = 1;
}
