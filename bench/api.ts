// `npm run bench [-- --quick] [--facilities N]`: our API against a bare node:http ceiling answering the same bytes, and
// against a Fastify peer that queries per request. Servers take turns on one pinned core, the load generator has the
// other. Prints req/s, p50/p99, server CPU per answer and RSS per scenario, with the ratios, and writes
// bench/results.json; then 10 vs 10,000 facilities, RSS over 60 s of load and signed snapshot export throughput.
// It reports figures and never judges them: the exit code is 0 unless something broke (a server died, answers differ).
import { mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { generateDb, issueKeys, listingIdIn } from './lib/data.ts';
import { runAutocannon, runWrk, wrkInstalled, type BenchRequest, type Generator, type Load } from './lib/load.ts';
import { machine, ratio, sideOf, table, type Side } from './lib/report.ts';
import { measure, type Round } from './lib/measure.ts';
import {
  capture,
  compileBenchServers,
  differences,
  pinLoadGenerator,
  REPO,
  startCeiling,
  startOurs,
  startPeer,
  type ServerProcess,
} from './lib/servers.ts';
import { exportThroughput, freshnessCheckCost, measureScale, sustained } from './lib/extra.ts';
import { ensureBuilt } from '../tools/build.ts';

const { values: args } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    facilities: { type: 'string' },
    listings: { type: 'string', default: '50' },
    duration: { type: 'string' },
    rounds: { type: 'string' },
    connections: { type: 'string', default: '50' },
    pipelining: { type: 'string', default: '1' },
    'no-wrk': { type: 'boolean', default: false },
    /** Only the ours-vs-ceiling scenarios (for iterating on the server). */
    'scenarios-only': { type: 'boolean', default: false },
    out: { type: 'string' },
  },
});
const quick = args.quick!;
// A quick run's figures mean little, so by default they never overwrite the committed full run's bench/results.json.
const outFile =
  args.out ?? (quick ? join(tmpdir(), 'storage-listings-bench-quick.json') : join(REPO, 'bench', 'results.json'));
// --quick (CI) keeps the database small enough to generate and export in seconds; the API scenarios read one facility either way.
const facilities = Number(args.facilities ?? (quick ? 200 : 1000));
const load: Load = {
  connections: Number(args.connections),
  pipelining: Number(args.pipelining),
  duration: Number(args.duration ?? (quick ? 2 : 5)),
};
const rounds = Number(args.rounds ?? (quick ? 1 : 3));
// wrk (one C thread) is the primary generator when installed: it costs the machine far less per request than autocannon
// (Node). autocannon is the fallback, and a full run reports it as well, separately.
const withWrk = !args['no-wrk'] && wrkInstalled();
const generators: [string, Generator][] = withWrk ? [['wrk', runWrk]] : [['autocannon', runAutocannon]];
if (withWrk && !quick) generators.push(['autocannon', runAutocannon]);

const out = (text: string) => process.stdout.write(text);
const broken: string[] = [];
const started = Date.now();
const dir = mkdtempSync(join(tmpdir(), 'listings-bench-'));
const running: ServerProcess[] = [];

interface Scenario {
  name: string;
  request: BenchRequest;
  /** The server it runs against (ours; ours with the request log on; ours with the failed-auth limit lifted). */
  ours: ServerProcess;
  /** Answers outside 2xx/3xx are the point of this scenario. */
  errorsExpected?: boolean;
  /** Requests are sent until the answer has this status, so that the captured answer is the steady state: a client
   * hammering with wrong keys from one address gets 401 for the first 30 (the failed-auth burst), then the limiter's 429. */
  primeUntil?: number;
  /** Also measured against the Fastify peer (which answers the same request its own way). */
  peer?: boolean;
}

interface Entry {
  status: number;
  bytes: number;
  ours: Side;
  ceiling: Side;
  ratio_rps: number;
  ratio_p99: number;
  ratio_cpu: number;
  peer?: Side;
  ratio_rps_vs_peer?: number;
}

async function main() {
  // `listings serve` runs the compiled bundle: build it first if the sources changed, so the bench measures them.
  ensureBuilt((line) => out(`${line}\n`));
  await compileBenchServers();
  const env = machine();
  out(
    `storage-listings API bench — ${env.cpu}, ${env.cores} cores, Node ${env.node}, load average ${env.loadavg_at_start.join(' ')}\n`,
  );
  out(
    `settings: ${JSON.stringify({ ...load, rounds, generators: generators.map(([g]) => g), facilities, listings: Number(args.listings) })}\n\n`,
  );

  const pinned = pinLoadGenerator(env.cores);
  out(`${pinned}\n`);
  const data = generateDb(dir, 'main', facilities, Number(args.listings));
  out(
    `database: ${data.facilities} facilities x ${data.listingsPerFacility} listings generated in ${data.seconds.toFixed(1)} s\n`,
  );
  const ours = track(await startOurs('ours', data.file));
  const oursLogged = track(await startOurs('ours + request log', data.file, { log: true }));
  const oursOpenAuth = track(await startOurs('ours, failed-auth limit lifted', data.file, { openAuth: true }));
  const peer = track(await startPeer(data.file));
  const keys = issueKeys(data);
  const freshness = freshnessCheckCost(data.file, out);

  const scenarios = await scenariosFor(keys[0]!, ours, oursLogged, oursOpenAuth);
  const warmUp = { ...load, duration: quick ? 1 : 2 };
  for (const s of [ours, oursLogged, oursOpenAuth, peer])
    await generators[0]![1](s.url, [scenarios[0]!.request], warmUp); // JIT warm-up

  const results: Record<string, Record<string, Entry>> = {};
  const sanity: string[] = [];
  for (const [gen, run] of generators) {
    results[gen] = {};
    const rows: (string | number)[][] = [];
    const peerRows: (string | number)[][] = [];
    for (const s of scenarios) {
      let answer = await capture(s.ours.url + s.request.path, s.request.headers);
      for (let i = 0; s.primeUntil !== undefined && answer.status !== s.primeUntil && i < 200; i++)
        answer = await capture(s.ours.url + s.request.path, s.request.headers);
      if (s.primeUntil !== undefined && answer.status !== s.primeUntil)
        broken.push(`${s.name}: never answered ${s.primeUntil}`);
      const ceiling = track(await startCeiling(answer));
      const diff = differences(answer, await capture(ceiling.url + s.request.path, s.request.headers));
      if (diff.length > 0) broken.push(`${s.name}: the ceiling does not answer what ours does: ${diff.join('; ')}`);
      await run(ceiling.url, [s.request], warmUp);
      const servers: [keyof typeof sides, ServerProcess][] = [
        ['ours', s.ours],
        ['ceiling', ceiling],
      ];
      if (s.peer) servers.push(['peer', peer]);
      const sides = { ours: [] as Round[], ceiling: [] as Round[], peer: [] as Round[] };
      for (let r = 0; r < rounds; r++) {
        // Alternating order: neither side always runs right after the other has warmed the machine.
        for (const [side, server] of r % 2 === 0 ? servers : [...servers].reverse()) {
          const round = await measure(run, server, [s.request], load);
          if (!s.errorsExpected && round.unexpected > 0)
            broken.push(`${s.name} (${server.name}, ${gen}): ${round.unexpected} unexpected errors`);
          // Every answer of a 200 scenario is a 200 (autocannon counts them; wrk counts answers outside 2xx/3xx).
          if (answer.status === 200 && round.ok2xx !== undefined && round.ok2xx < round.requests)
            broken.push(`${s.name} (${server.name}, ${gen}): ${round.requests - round.ok2xx} answers were not 2xx`);
          sides[side].push(round);
        }
      }
      await ceiling.stop();
      const o = sideOf(sides.ours);
      const c = sideOf(sides.ceiling);
      const bytes = Buffer.from(answer.body, 'base64').length;
      const entry: Entry = {
        status: answer.status,
        bytes,
        ours: o,
        ceiling: c,
        ratio_rps: ratio(o.rps, c.rps),
        ratio_p99: ratio(o.p99_ms, c.p99_ms),
        ratio_cpu: ratio(o.cpu_us_per_req, c.cpu_us_per_req),
      };
      if (entry.ratio_rps > 1)
        sanity.push(`${gen} ${s.name}: ours at ${entry.ratio_rps}x a server that only replays bytes`);
      if (s.peer) {
        const p = sideOf(sides.peer);
        entry.peer = p;
        entry.ratio_rps_vs_peer = ratio(o.rps, p.rps);
        peerRows.push([
          s.name,
          o.rps,
          p.rps,
          entry.ratio_rps_vs_peer,
          o.p99_ms,
          p.p99_ms,
          o.cpu_us_per_req,
          p.cpu_us_per_req,
        ]);
      }
      results[gen][s.name] = entry;
      rows.push([
        s.name,
        answer.status,
        bytes,
        o.rps,
        c.rps,
        entry.ratio_rps,
        o.p50_ms,
        c.p50_ms,
        o.p99_ms,
        c.p99_ms,
        entry.ratio_p99,
        o.cpu_us_per_req,
        c.cpu_us_per_req,
        entry.ratio_cpu,
        o.rss_mb,
        c.rss_mb,
      ]);
    }
    out(
      `\n${gen} (${load.connections} connections, pipelining ${load.pipelining}, ${rounds} x ${load.duration} s per side, alternating; ${pinned}):\n`,
    );
    out(
      table(
        [
          'scenario',
          'status',
          'bytes',
          'ours req/s',
          'ceiling req/s',
          'ratio',
          'ours p50 ms',
          'ceil p50 ms',
          'ours p99 ms',
          'ceil p99 ms',
          'p99 ratio',
          'ours CPU µs/req',
          'ceil CPU µs/req',
          'CPU ratio',
          'ours RSS MB',
          'ceil RSS MB',
        ],
        rows,
      ),
    );
    out(`\n${gen}, against the peer (Fastify 5 + better-sqlite3, querying and serialising per request):\n`);
    out(
      table(
        [
          'scenario',
          'ours req/s',
          'peer req/s',
          'ours/peer',
          'ours p99 ms',
          'peer p99 ms',
          'ours CPU µs/req',
          'peer CPU µs/req',
        ],
        peerRows,
      ),
    );
  }
  // Other processes on these two cores skew every figure, pinned or not: say so beside the figures.
  const busy = loadavg()[0]!;
  if (busy > env.cores)
    sanity.push(
      `load average ${busy.toFixed(2)} on ${env.cores} cores at the end: other processes shared the cores, compare CPU µs/req rather than req/s`,
    );
  // A server that does work cannot beat one that only replays bytes: a ratio above 1 means the harness measured the machine.
  out(
    sanity.length === 0
      ? `\nsanity: no ratio above 1 (ours never beat the ceiling)\n`
      : `\nsanity: SUSPECT figures (a ratio above 1 means the harness measured the machine, not the server):\n- ${sanity.join('\n- ')}\n`,
  );
  await oursLogged.stop();
  await oursOpenAuth.stop();
  await peer.stop();

  const only = args['scenarios-only'];
  const scale = only
    ? undefined
    : await measureScale(dir, generators.slice(0, 1), load, rounds, quick ? data : undefined, track, out);
  const soak = quick || only ? undefined : await sustained(data, keys, ours, generators[0]!, load, out);
  await ours.stop();
  const snapshot = only ? undefined : await exportThroughput(dir, data, out);

  const report = {
    date: new Date().toISOString(),
    command: `npm run bench${process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(' ')}` : ''}`,
    machine: { ...env, loadavg_at_end: loadavg().map((l) => Math.round(l * 100) / 100) },
    settings: {
      ...load,
      rounds,
      quick,
      pinned,
      facilities: data.facilities,
      listings_per_facility: data.listingsPerFacility,
      generators: generators.map(([g]) => g),
    },
    scenarios: results,
    sanity,
    freshness,
    scale,
    sustained: soak,
    snapshot_export: snapshot,
    broken,
    seconds: Math.round((Date.now() - started) / 1000),
  };
  writeFileSync(`${outFile}.tmp`, JSON.stringify(report, null, 2) + '\n');
  renameSync(`${outFile}.tmp`, outFile); // a run stopped mid-write leaves the previous results whole
  out(`\nwrote ${outFile} (${report.seconds} s)\n`);
}

function track<T extends ServerProcess>(s: T): T {
  running.push(s);
  s.child.once('exit', (code, signal) => {
    if (!stopping.has(s)) broken.push(`${s.name} exited unexpectedly (${signal ?? code})`);
  });
  const stop = s.stop;
  s.stop = () => {
    stopping.add(s);
    return stop();
  };
  return s;
}
const stopping = new Set<ServerProcess>();

async function scenariosFor(
  key: string,
  ours: ServerProcess,
  oursLogged: ServerProcess,
  oursOpenAuth: ServerProcess,
): Promise<Scenario[]> {
  const list = { path: '/external/listings', headers: { 'x-api-key': key } };
  const etag = (await capture(ours.url + list.path, list.headers)).headers.find(
    (_, i, h) => h[i - 1]?.toLowerCase() === 'etag',
  )!;
  const unknownKey = `svc_live_${'x'.repeat(32)}`;
  const unknown = { path: list.path, headers: { 'x-api-key': unknownKey } };
  return [
    { name: 'list 200', request: list, ours, peer: true },
    {
      name: 'list 200, br',
      request: { path: list.path, headers: { 'x-api-key': key, 'accept-encoding': 'br, gzip' } },
      ours,
    },
    {
      name: 'detail 200',
      request: { path: `/external/listings/${listingIdIn(0, 7)}`, headers: { 'x-api-key': key } },
      ours,
      peer: true,
    },
    { name: 'list 304', request: { path: list.path, headers: { 'x-api-key': key, 'if-none-match': etag } }, ours },
    { name: 'unknown key 401', request: unknown, ours: oursOpenAuth, errorsExpected: true, primeUntil: 401 },
    { name: 'unknown key (429 after 30)', request: unknown, ours, errorsExpected: true, primeUntil: 429 },
    { name: 'list 200, request log on', request: list, ours: oursLogged },
  ];
}

async function stopAll() {
  for (const s of running) await s.stop().catch(() => undefined);
}

main()
  .catch((err: Error) => {
    broken.push(err.stack ?? String(err));
  })
  .finally(async () => {
    await stopAll();
    rmSync(dir, { recursive: true, force: true });
    if (broken.length > 0) {
      console.error(`bench: something broke:\n- ${broken.join('\n- ')}`);
      process.exitCode = 1;
    }
  });
