// `npm run bench [-- --quick] [--facilities N]`: our API against a bare node:http ceiling answering the same bytes.
// Prints req/s, p50/p99, server CPU per answer and RSS per scenario, with the ratios ours/ceiling, and writes
// bench/results.json; then 10 vs 10,000 facilities, RSS over 60 s of load and signed snapshot export throughput.
// It reports figures and never judges them: the exit code is 0 unless something broke (a server died, answers differ).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { generateDb, issueKeys, listingIdIn } from './lib/data.ts';
import { runAutocannon, runWrk, wrkInstalled, type BenchRequest, type Generator, type Load } from './lib/load.ts';
import { machine, ratio, sideOf, table, type Side } from './lib/report.ts';
import { measure, type Round } from './lib/measure.ts';
import { capture, differences, REPO, startCeiling, startOurs, type ServerProcess } from './lib/servers.ts';
import { exportThroughput, freshnessCheckCost, measureScale, sustained } from './lib/extra.ts';
import { bundleIsCurrent } from '../bin/current-bundle.js';

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
const outFile = args.out ?? (quick ? join(tmpdir(), 'storage-listings-bench-quick.json') : join(REPO, 'bench', 'results.json'));
// --quick (CI) keeps the database small enough to generate and export in seconds; the API scenarios read one facility either way.
const facilities = Number(args.facilities ?? (quick ? 200 : 1000));
const load: Load = { connections: Number(args.connections), pipelining: Number(args.pipelining), duration: Number(args.duration ?? (quick ? 2 : 5)) };
const rounds = Number(args.rounds ?? (quick ? 1 : 3));
const generators: [string, Generator][] = [['autocannon', runAutocannon]];
// wrk is one C thread: it leaves the server more of the machine than autocannon does. --quick keeps to autocannon (CI has it).
if (!quick && !args['no-wrk'] && wrkInstalled()) generators.push(['wrk', runWrk]);

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
}

async function main() {
  // `listings serve` runs the compiled bundle only while it is current, and the sources through tsx otherwise: build
  // first, so that the bench measures what production runs.
  if (!bundleIsCurrent(new URL('../', import.meta.url))) {
    out('dist/server is missing or older than the sources: npm run build\n');
    execFileSync('npm', ['run', 'build'], { cwd: REPO, stdio: ['ignore', 'ignore', 'inherit'] });
  }
  const env = machine();
  out(`storage-listings API bench — ${env.cpu}, ${env.cores} cores, Node ${env.node}, load average ${env.loadavg_at_start.join(' ')}\n`);
  out(`settings: ${JSON.stringify({ ...load, rounds, generators: generators.map(([g]) => g), facilities, listings: Number(args.listings) })}\n\n`);

  const data = generateDb(dir, 'main', facilities, Number(args.listings));
  out(`database: ${data.facilities} facilities x ${data.listingsPerFacility} listings generated in ${data.seconds.toFixed(1)} s\n`);
  const ours = track(await startOurs('ours', data.file));
  const oursLogged = track(await startOurs('ours + request log', data.file, { log: true }));
  const oursOpenAuth = track(await startOurs('ours, failed-auth limit lifted', data.file, { openAuth: true }));
  const ceiling = track(await startCeiling());
  const keys = issueKeys(data);
  const freshness = freshnessCheckCost(data.file, out);

  const scenarios = await scenariosFor(keys[0]!, ours, oursLogged, oursOpenAuth);
  for (const s of [ours, oursLogged, oursOpenAuth, ceiling]) await runAutocannon(s.url, [scenarios[0]!.request], { ...load, duration: quick ? 1 : 2 }); // JIT warm-up

  const results: Record<string, Record<string, { ours: Side; ceiling: Side; ratio_rps: number; ratio_p99: number; ratio_cpu: number }>> = {};
  for (const [gen, run] of generators) {
    results[gen] = {};
    const rows: (string | number)[][] = [];
    for (const s of scenarios) {
      let answer = await capture(s.ours.url + s.request.path, s.request.headers);
      for (let i = 0; s.primeUntil !== undefined && answer.status !== s.primeUntil && i < 200; i++) answer = await capture(s.ours.url + s.request.path, s.request.headers);
      if (s.primeUntil !== undefined && answer.status !== s.primeUntil) broken.push(`${s.name}: never answered ${s.primeUntil}`);
      await ceiling.answer(answer);
      const diff = differences(answer, await capture(ceiling.url + s.request.path, s.request.headers));
      if (diff.length > 0) broken.push(`${s.name}: the ceiling does not answer what ours does: ${diff.join('; ')}`);
      const sides = { ours: [] as Round[], ceiling: [] as Round[] };
      for (let r = 0; r < rounds; r++) {
        const pair = [['ours', s.ours], ['ceiling', ceiling]] as const;
        for (const [side, server] of r % 2 === 0 ? pair : [...pair].reverse()) {
          const round = await measure(run, server, [s.request], load);
          if (!s.errorsExpected && round.unexpected > 0) broken.push(`${s.name} (${server.name}, ${gen}): ${round.unexpected} unexpected errors`);
          sides[side].push(round);
        }
      }
      const o = sideOf(sides.ours);
      const c = sideOf(sides.ceiling);
      const entry = { status: answer.status, ours: o, ceiling: c, ratio_rps: ratio(o.rps, c.rps), ratio_p99: ratio(o.p99_ms, c.p99_ms), ratio_cpu: ratio(o.cpu_us_per_req, c.cpu_us_per_req) };
      results[gen][s.name] = entry;
      rows.push([s.name, answer.status, Buffer.from(answer.body, 'base64').length, o.rps, c.rps, entry.ratio_rps, o.p50_ms, c.p50_ms, o.p99_ms, c.p99_ms, entry.ratio_p99, o.cpu_us_per_req, c.cpu_us_per_req, o.rss_mb, c.rss_mb]);
    }
    out(`\n${gen} (${load.connections} connections, pipelining ${load.pipelining}, ${rounds} x ${load.duration} s per side, alternating):\n`);
    out(table(['scenario', 'status', 'bytes', 'ours req/s', 'ceiling req/s', 'ratio', 'ours p50 ms', 'ceil p50 ms', 'ours p99 ms', 'ceil p99 ms', 'p99 ratio', 'ours CPU µs/req', 'ceil CPU µs/req', 'ours RSS MB', 'ceil RSS MB'], rows));
  }
  await oursLogged.stop();
  await oursOpenAuth.stop();
  await ceiling.stop();

  const only = args['scenarios-only'];
  const scale = only ? undefined : await measureScale(dir, generators, load, rounds, quick ? data : undefined, track, out);
  const soak = quick || only ? undefined : await sustained(data, keys, ours, generators.at(-1)!, load, out);
  await ours.stop();
  const snapshot = only ? undefined : await exportThroughput(dir, data, out);

  const report = {
    date: new Date().toISOString(),
    command: `npm run bench${process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(' ')}` : ''}`,
    machine: { ...env, loadavg_at_end: loadavg().map((l) => Math.round(l * 100) / 100) },
    settings: { ...load, rounds, quick, facilities: data.facilities, listings_per_facility: data.listingsPerFacility, generators: generators.map(([g]) => g) },
    scenarios: results,
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

async function scenariosFor(key: string, ours: ServerProcess, oursLogged: ServerProcess, oursOpenAuth: ServerProcess): Promise<Scenario[]> {
  const list = { path: '/external/listings', headers: { 'x-api-key': key } };
  const etag = (await capture(ours.url + list.path, list.headers)).headers.find((_, i, h) => h[i - 1]?.toLowerCase() === 'etag')!;
  const unknownKey = `svc_live_${'x'.repeat(32)}`;
  const unknown = { path: list.path, headers: { 'x-api-key': unknownKey } };
  return [
    { name: 'list 200', request: list, ours },
    { name: 'detail 200', request: { path: `/external/listings/${listingIdIn(0, 7)}`, headers: { 'x-api-key': key } }, ours },
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

