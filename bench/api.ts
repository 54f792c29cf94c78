// `npm run bench [-- --quick | --full | --scenario NAMES]`: our API against a ceiling replaying its captured bytes
// through the same transport, and against a Fastify peer that queries per request; servers take turns on one pinned
// core, the load generator has the other. By default (about 5 minutes) the field mix (many keys, filters, rental pages,
// refused keys, a 10,000-listing facility) and list/detail/304 with one key, summarised into bench/results.json.
// `--full` adds the abuse scenario, the other one-key scenarios, 10 vs 10,000 facilities, RSS over 60 s of load and
// signed snapshot export; `--scenario abuse` (or any scenario's name) runs those alone.
// `--db postgres` runs instead one node on PostgreSQL against the same node on SQLite, and imports into each.
// It reports figures and never judges them: the exit code is 0 unless something broke (a server died, answers differ).
import { mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { describeDb, generateDb, issueKeys } from './lib/data.ts';
import { fieldScenarios } from './lib/field-scenarios.ts';
import { runAutocannon, runWrk, wrkInstalled, type Generator, type Load } from './lib/load.ts';
import { machine, resultsText } from './lib/report.ts';
import { compileBenchServers, pinLoadGenerator, REPO, startOurs, type ServerProcess } from './lib/servers.ts';
import { measureOneKey } from './lib/one-key.ts';
import { exportThroughput, freshnessCheckCost, measureScale, sustained } from './lib/extra.ts';
import { postgresBench } from './lib/postgres.ts';
import { ensureBuilt } from '../tools/build.ts';
import { SERVER_NODE_FLAGS } from '../server/node-flags.ts';

const { values: args } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    /** Every scenario, the abuse scenario and the scale, soak and export measures (about half an hour). */
    full: { type: 'boolean', default: false },
    facilities: { type: 'string' },
    listings: { type: 'string', default: '50' },
    duration: { type: 'string' },
    rounds: { type: 'string' },
    /** Fresh sets of processes the one-key scenarios' rounds are spread over (default: 4; 1 with --quick). */
    processes: { type: 'string' },
    /** Rounds of ours and the ceiling in the field mix (default: three times --rounds). */
    'field-pairs': { type: 'string' },
    connections: { type: 'string', default: '50' },
    pipelining: { type: 'string', default: '1' },
    'no-wrk': { type: 'boolean', default: false },
    /** Only the ours-vs-ceiling scenarios (for iterating on the server). */
    'scenarios-only': { type: 'boolean', default: false },
    /** Only the scenarios whose name contains one of these comma-separated words (e.g. "detail,304"; "field" is the
     * field mix, "abuse" the abuse scenario); implies --scenarios-only. */
    scenario: { type: 'string' },
    out: { type: 'string' },
    /** postgres: only the PostgreSQL node against the SQLite one, and import into each (bench/lib/postgres.ts). */
    db: { type: 'string', default: 'sqlite' },
  },
});
if (args.db !== 'sqlite' && args.db !== 'postgres') {
  console.error(`bench: --db ${args.db}: expected sqlite or postgres`);
  process.exit(2);
}
const onPostgres = args.db === 'postgres';
const quick = args.quick!;
const full = args.full!;
// The default run: the field mix and the one-key list, detail and 304.
const DEFAULT_SCENARIOS = 'field mix,list 200,detail 200,list 304';
// A quick run's figures mean little, and a run of some scenarios lacks the others: by default neither overwrites the
// committed bench/results.json.
const partial = args.scenario !== undefined || args['scenarios-only'];
const outFile =
  args.out ??
  (quick || partial
    ? join(tmpdir(), `storage-listings-bench-${onPostgres ? 'postgres-' : ''}${quick ? 'quick' : 'partial'}.json`)
    : join(REPO, 'bench', onPostgres ? 'results-postgres.json' : 'results.json'));
// --quick (CI) keeps the database small enough to generate and export in seconds; the API scenarios read one facility either way.
const facilities = Number(args.facilities ?? (quick ? 200 : 1000));
const listings = Number(args.listings);
const load: Load = {
  connections: Number(args.connections),
  pipelining: Number(args.pipelining),
  duration: Number(args.duration ?? 2),
};
// Many short rounds rather than a few long ones: this VM's speed drifts by tens of percent over seconds, and a ratio is
// the median of per-round ratios (each pair ran back to back), so more pairs give a steadier median.
const rounds = Number(args.rounds ?? (quick ? 1 : full ? 12 : 4));
// One pair of processes runs a few percent faster or slower than the next on the same code: the one-key scenarios'
// rounds are spread over several fresh pairs (bench/lib/one-key.ts).
const processes = Number(args.processes ?? (quick ? 1 : full ? 4 : 2));
// The field mix's ratio is a goal: three times the rounds' pairs narrow its interval enough to judge it.
const fieldPairs = Number(args['field-pairs'] ?? rounds * 3);
// wrk (one C thread) is the primary generator when installed: it costs the machine far less per request than autocannon
// (Node). autocannon is the fallback, and a full run reports it as well, separately.
const withWrk = !args['no-wrk'] && wrkInstalled();
const generators: [string, Generator][] = withWrk ? [['wrk', runWrk]] : [['autocannon', runAutocannon]];

const out = (text: string) => process.stdout.write(text);
const broken: string[] = [];
const started = Date.now();
const dir = mkdtempSync(join(tmpdir(), 'listings-bench-'));
const running: ServerProcess[] = [];

async function main() {
  // `listings serve` runs the compiled bundle: build it first if the sources changed, so the bench measures them.
  ensureBuilt((line) => out(`${line}\n`));
  await compileBenchServers();
  const env = machine();
  out(
    `storage-listings API bench — ${env.cpu}, ${env.cores} cores, Node ${env.node}, load average ${env.loadavg_at_start.join(' ')}\n`,
  );
  out(
    `settings: ${JSON.stringify({ ...load, rounds, processes, field_pairs: fieldPairs, generators: generators.map(([g]) => g), facilities, listings, node_flags: SERVER_NODE_FLAGS })}\n\n`,
  );

  const pinned = pinLoadGenerator(env.cores);
  out(`${pinned}\n`);
  if (onPostgres) {
    const generator = generators[0]!;
    const figures = await postgresBench({
      quick,
      dir,
      facilities,
      listings,
      generator,
      load,
      rounds,
      pinned,
      track,
      broken,
      out,
    });
    return writeReport({ date: new Date().toISOString(), machine: env, ...figures });
  }
  const wanted = (args.scenario ?? (full || quick ? '' : DEFAULT_SCENARIOS)).split(',');
  // A name given on the command line matches every scenario that contains it; the default's names match exactly.
  const selected = (name: string) =>
    wanted.some((w) => (args.scenario === undefined && !full && !quick ? name === w : name.includes(w)));
  const sanity: string[] = [];
  const warmUp = { ...load, duration: quick ? 1 : 2 };

  const [generator, run] = generators[0]!;
  const field =
    selected('field mix') || selected('abuse')
      ? await fieldScenarios({
          quick,
          field: selected('field mix'),
          abuse: selected('abuse'),
          pinned,
          generator,
          run,
          load,
          warmUp,
          rounds,
          pairs: fieldPairs,
          dir,
          track,
          broken,
          sanity,
          out,
        })
      : {};
  // The one-key scenarios, unless --scenario names only the field mix and abuse.
  const oneKey = full || quick || wanted.some((w) => !'field mix'.includes(w) && !'abuse'.includes(w));
  const rest = oneKey ? await oneKeyScenarios() : undefined;

  // Other processes on these two cores skew every figure, pinned or not: say so beside the figures.
  const busy = loadavg()[0]!;
  if (busy > env.cores)
    sanity.push(
      `load average ${busy.toFixed(2)} on ${env.cores} cores at the end: other processes shared the cores, compare CPU µs/req rather than req/s`,
    );
  // A server that does work cannot beat one that only replays bytes: a ratio above 1 means the harness measured the machine.
  out(
    sanity.length === 0
      ? `\nsanity: no ratio above 1 (ours never beat the ceiling), and every server kept its core busy\n`
      : `\nsanity: SUSPECT figures (a ratio above 1 means the harness measured the machine, not the server; below a busy core, the generator):\n- ${sanity.join('\n- ')}\n`,
  );

  const report = {
    date: new Date().toISOString(),
    command: `npm run bench${process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(' ')}` : ''}`,
    machine: { ...env, loadavg_at_end: loadavg().map((l) => Math.round(l * 100) / 100) },
    settings: {
      ...load,
      rounds,
      processes,
      field_pairs: fieldPairs,
      quick,
      pinned,
      facilities: rest?.data.facilities,
      listings_per_facility: rest?.data.sizes[0],
      generators: generators.map(([g]) => g),
      /** Every server ran with these (the flags of `listings serve`'s shebang). */
      node_flags: SERVER_NODE_FLAGS,
    },
    field_mix: field.field_mix,
    abuse: field.abuse,
    scenarios: rest?.results,
    sanity,
    freshness: rest?.freshness,
    scale: rest?.scale,
    sustained: rest?.soak,
    snapshot_export: rest?.snapshot,
    broken,
    seconds: Math.round((Date.now() - started) / 1000),
  };
  writeReport(report);

  /** One key, one facility, the same request again and again, against a ceiling per server, on several fresh sets of
   * processes; then scale, soak and export. */
  async function oneKeyScenarios() {
    const data = generateDb(dir, 'main', facilities, listings);
    out(`\ndatabase: ${describeDb(data)} generated in ${data.seconds.toFixed(1)} s\n`);
    const keys = issueKeys(data);
    const freshness = freshnessCheckCost(data.file, out);
    const results = await measureOneKey({
      file: data.file,
      key: keys[0]!,
      generators,
      processes,
      rounds,
      load,
      warmUp,
      // 12 runs per scenario over the 4 sets (a quick run: 1).
      pinned,
      selected,
      track,
      broken,
      sanity,
      out,
    });

    const only = args['scenarios-only'] || args.scenario !== undefined || (!full && !quick);
    const scale = only
      ? undefined
      : await measureScale(dir, generators.slice(0, 1), load, rounds, quick ? data : undefined, track, out);
    const ours = only || quick ? undefined : track(await startOurs('ours', data.file));
    const soak = ours && (await sustained(data, keys, ours, generators[0]!, load, out));
    await ours?.stop();
    const snapshot = only ? undefined : await exportThroughput(dir, data, out);

    return { data, results, freshness, scale, soak, snapshot };
  }
}

function writeReport(report: Record<string, unknown>) {
  const seconds = Math.round((Date.now() - started) / 1000);
  writeFileSync(`${outFile}.tmp`, resultsText({ ...report, seconds }) + '\n');
  renameSync(`${outFile}.tmp`, outFile); // a run stopped mid-write leaves the previous results whole
  out(`\nwrote ${outFile} (${seconds} s)\n`);
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
