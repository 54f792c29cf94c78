// `npm run bench:handler [-- --processes N]`: the API's own work per request, in process and without a socket: the
// handler called on cached answers (list, detail, 304, br, unknown key, and the list with the request log written to
// /dev/null), nanoseconds per call. The HTTP bench cannot resolve a change of tens of nanoseconds beside Node's own
// HTTP work; this can. Each process prints the median of 5 repetitions; V8 settles in a faster or a
// slower state per process, so several processes run.
import { spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createHandler } from '../server/http/handler.ts';
import type { RequestLike } from '../server/http/transport/answer.ts';
import { openDb } from '../server/store/db.ts';
import { JsonLog } from '../server/http/transport/log.ts';
import { generateDb, issueKeys, listingIdIn } from './lib/data.ts';
import { median, table } from './lib/report.ts';

const { values: args } = parseArgs({
  options: { processes: { type: 'string', default: '3' }, child: { type: 'boolean', default: false } },
});
const CALLS = 2_000_000;
/** Distinct request objects, cycled: each with strings of its own, as Node's parser makes them per request. */
const POOL = 4096;

function measureHere(): Record<string, number> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-handler-'));
  try {
    const data = generateDb(dir, 'main', 50, 50);
    const key = issueKeys(data)[0]!;
    const db = openDb(data.file, { migrate: false });
    const options = {
      db,
      publicUrl: 'http://127.0.0.1:8787',
      keyPrefix: 'svc',
      defaultLimit: { rate: 100, burst: 500 },
      authFailureLimit: { rate: 1e9, burst: 1e9 },
    };
    const handler = createHandler(options);
    // The request log written as `listings serve` writes it to a file: whole buffers, here to /dev/null.
    const devNull = openSync('/dev/null', 'w');
    const log = new JsonLog((text) => writeSync(devNull, text));
    const logged = createHandler({ ...options, logRequest: log.request });
    const copy = (s: string) => Buffer.from(s, 'latin1').toString('latin1');
    const list = '/external/listings';
    const first = handler({ method: 'GET', url: list, headers: { 'x-api-key': key }, remoteAddress: '127.0.0.1' });
    const etag = first.headers.etag!;
    const cases: Record<string, [string, Record<string, string>, typeof handler?]> = {
      'list 200': [list, { 'x-api-key': key }],
      'list 200, br': [list, { 'x-api-key': key, 'accept-encoding': 'br, gzip' }],
      'detail 200': [`${list}/${listingIdIn(0, 7)}`, { 'x-api-key': key }],
      'list 304': [list, { 'x-api-key': key, 'if-none-match': etag }],
      'unknown key 401': [list, { 'x-api-key': `svc_live_${'x'.repeat(32)}` }],
      'list 200, request log on': [list, { 'x-api-key': key }, logged],
    };
    const result: Record<string, number> = {};
    let sink = 0;
    for (const [name, [url, h, answering = handler]] of Object.entries(cases)) {
      const pool: RequestLike[] = Array.from({ length: POOL }, () => ({
        method: 'GET',
        url: copy(url),
        headers: Object.fromEntries([
          ['host', copy('127.0.0.1:8787')],
          ...Object.entries(h).map(([k, v]) => [k, copy(v)]),
        ]),
        remoteAddress: '127.0.0.1',
      }));
      const reps: number[] = [];
      for (let rep = 0; rep < 5; rep++) {
        const started = performance.now();
        // One batch, as the server answers them: the freshness check is not part of the per-request work.
        answering.batch(() => {
          for (let i = 0; i < CALLS; i++) sink += answering(pool[i % POOL]!).status;
        });
        reps.push(((performance.now() - started) * 1e6) / CALLS);
      }
      result[name] = Math.round(median(reps));
    }
    handler.close();
    logged.close();
    log.flush();
    closeSync(devNull);
    db.close();
    if (sink === 0) throw new Error('no answers');
    return result;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (args.child) {
  process.stdout.write(JSON.stringify(measureHere()));
} else {
  const runs: Record<string, number>[] = [];
  for (let p = 0; p < Number(args.processes); p++) {
    const child = spawnSync(process.execPath, [...process.execArgv, process.argv[1]!, '--child'], { encoding: 'utf8' });
    if (child.status !== 0) throw new Error(`bench:handler child failed: ${child.stderr}`);
    runs.push(JSON.parse(child.stdout) as Record<string, number>);
  }
  const names = Object.keys(runs[0]!);
  process.stdout.write(
    `the handler per request, in process (ns per call; median of 5 x ${CALLS.toLocaleString('en')} calls per process):\n` +
      table(
        ['scenario', ...runs.map((_, i) => `process ${i + 1}`), 'fastest'],
        names.map((n) => [n, ...runs.map((r) => r[n]!), Math.min(...runs.map((r) => r[n]!))]),
      ),
  );
}
