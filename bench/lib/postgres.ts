// `npm run bench -- --db postgres`: one node on PostgreSQL against the same node on a SQLite file with the same data, in
// the same run (list, detail, 304; rounds alternate), and `listings import` of N facilities x 50 listings into each.
// PostgreSQL runs durably (fsync on), pinned to the servers' core: its side of each per-batch freshness read is charged
// to the PostgreSQL node, as it would be on a machine of its own.
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { copySqliteToPg } from '../../server/store/pg/copy.ts';
import { openStore } from '../../server/store/store.ts';
import { startPostgres, type PgServer } from '../../test/helpers/postgres.ts';
import { createKeys, facilityIdOf, facilityOf, generateDb, listingIdIn } from './data.ts';
import type { BenchRequest, Generator, Load } from './load.ts';
import { measure, type Round } from './measure.ts';
import { ratio, sideOf, table, type Side } from './report.ts';
import { capture, differences } from './capture.ts';
import { REPO, startOurs, type ServerProcess } from './servers.ts';

type Out = (text: string) => void;

export interface PostgresBenchOptions {
  quick: boolean;
  dir: string;
  facilities: number;
  listings: number;
  generator: [string, Generator];
  load: Load;
  rounds: number;
  /** How the run is pinned (pinLoadGenerator's answer). */
  pinned: string;
  track: <T extends ServerProcess>(s: T) => T;
  broken: string[];
  out: Out;
}

/** A facility with its own rent link template: the bodies do not carry the server's port, so both sides compare. */
const FACILITY = 0;
const SERVER_CORE = '0';

/** The whole run, as bench/results-postgres.json keeps it (with the date and machine). */
export async function postgresBench(o: PostgresBenchOptions) {
  const pg = await startPostgres({ durable: true });
  const pinned = o.pinned.startsWith('pinned');
  try {
    if (pinned) pinPostgres(pg);
    const api = await apiScenarios(o, pg);
    const importFigures = await importScenario(o, pg);
    return {
      command: `npm run bench -- ${process.argv.slice(2).join(' ')}`,
      settings: { ...o.load, rounds: o.rounds, quick: o.quick, pinned: o.pinned },
      api,
      import: importFigures,
      postgres: { durable: true, pinned_to_server_core: pinned },
      broken: o.broken,
    };
  } finally {
    await pg.close();
  }
}

/** The postmaster and every backend it forks from now on, on the servers' core. */
function pinPostgres(pg: PgServer): void {
  const pid = pg.pid();
  if (pid !== undefined) spawnSync('taskset', ['-a', '-p', '-c', SERVER_CORE, String(pid)]);
}

async function apiScenarios(o: PostgresBenchOptions, pg: PgServer) {
  const data = generateDb(o.dir, 'pg-compare', o.facilities, o.listings);
  const url = await pg.newDatabase();
  await copySqliteToPg(data.file, url);
  const [sqliteKey] = createKeys(data, [{ facility: FACILITY, rate_per_s: 1e9, burst: 1e9 }]).map((k) => k.key);
  const store = await openStore(url);
  const pgKey = (
    await store.createKey({ facilityId: facilityIdOf(FACILITY), prefix: 'svc', rate_per_s: 1e9, burst: 1e9 })
  ).key;
  await store.close();
  o.out(`\nPostgreSQL vs SQLite: ${o.facilities} facilities x ${o.listings} listings, the same rows in both\n`);
  const sides: [ServerProcess, string][] = [
    [o.track(await startOurs('ours on SQLite', data.file)), sqliteKey!],
    [o.track(await startOurs('ours on PostgreSQL', url)), pgKey],
  ];
  const list = '/external/listings';
  const detail = `/external/listings/${listingIdIn(FACILITY, 1)}`;
  const first = (await capture(sides[0]![0].url + list, { 'x-api-key': sqliteKey! })).headers;
  const tag = first[first.findIndex((h, i) => i % 2 === 0 && h.toLowerCase() === 'etag') + 1]!;
  const scenarios: [string, (key: string) => BenchRequest][] = [
    ['list', (key) => ({ path: list, headers: { 'x-api-key': key } })],
    ['detail', (key) => ({ path: detail, headers: { 'x-api-key': key } })],
    ['304', (key) => ({ path: list, headers: { 'x-api-key': key, 'if-none-match': tag } })],
  ];
  const [gen, run] = o.generator;
  const results: Record<string, { sqlite: Side; postgres: Side; ratio_rps: number; ratio_cpu: number }> = {};
  const rows: (string | number)[][] = [];
  for (const [name, request] of scenarios) {
    const answers = await Promise.all(
      sides.map(([s, key]) => capture(s.url + request(key).path, request(key).headers)),
    );
    const differ = differences(answers[0]!, answers[1]!);
    if (differ.length > 0) o.broken.push(`PostgreSQL ${name}: answers differ from SQLite's: ${differ.join('; ')}`);
    for (const [s, key] of sides) await run(s.url, [request(key)], { ...o.load, duration: 1 }); // warm up
    const figures: Round[][] = [[], []];
    for (let r = 0; r < o.rounds; r++)
      for (const i of r % 2 === 0 ? [0, 1] : [1, 0]) {
        const [s, key] = sides[i]!;
        figures[i]!.push(await measure(run, s, [request(key)], o.load));
      }
    const [a, b] = [sideOf(figures[0]!), sideOf(figures[1]!)];
    for (const [side, f] of [
      ['SQLite', a],
      ['PostgreSQL', b],
    ] as const) {
      const bad = f.rounds.reduce((n, x) => n + x.unexpected, 0);
      if (bad > 0) o.broken.push(`${side} ${name}: ${bad} unexpected answers`);
    }
    results[name] = {
      sqlite: a,
      postgres: b,
      ratio_rps: ratio(b.rps, a.rps),
      ratio_cpu: ratio(a.cpu_us_per_req, b.cpu_us_per_req),
    };
    rows.push([name, a.rps, b.rps, ratio(b.rps, a.rps), a.p99_ms, b.p99_ms, a.cpu_us_per_req, b.cpu_us_per_req]);
  }
  for (const [s] of sides) await s.stop();
  o.out(
    `${gen} (${o.load.connections} connections, ${o.rounds} x ${o.load.duration} s per side, alternating; goal: PostgreSQL >= 0.8x):\n`,
  );
  o.out(
    table(
      [
        'scenario',
        'SQLite req/s',
        'PostgreSQL req/s',
        'ratio',
        'SQLite p99 ms',
        'PG p99 ms',
        'SQLite CPU µs/req',
        'PG CPU µs/req',
      ],
      rows,
    ),
  );
  return results;
}

/** `listings import FILE` as an operator runs it (a process: validation, then one transaction), into each backend. */
async function importScenario(o: PostgresBenchOptions, pg: PgServer) {
  const importFacilities = o.quick ? 100 : 1000;
  const file = join(o.dir, 'import.json');
  const facilities = Array.from({ length: importFacilities }, (_, i) => facilityOf(i, 50));
  writeFileSync(file, JSON.stringify({ facilities }));
  o.out(`\nimport: ${importFacilities} facilities x 50 listings, into an empty database and again into the same one\n`);
  const timed = (db: string) => {
    const began = performance.now();
    const r = spawnSync(process.execPath, [join(REPO, 'bin', 'listings.js'), 'import', file, '--db', db], {
      cwd: REPO,
      encoding: 'utf8',
    });
    if (r.status !== 0)
      o.broken.push(`import into ${db.startsWith('postgres') ? 'PostgreSQL' : 'SQLite'}: ${r.stderr}`);
    return Math.round(performance.now() - began) / 1000;
  };
  const runs = {
    sqlite: { empty: [] as number[], again: [] as number[] },
    postgres: { empty: [] as number[], again: [] as number[] },
  };
  const rounds = o.quick ? 1 : 3;
  for (let r = 0; r < rounds; r++) {
    for (const side of r % 2 === 0 ? (['sqlite', 'postgres'] as const) : (['postgres', 'sqlite'] as const)) {
      const db = side === 'sqlite' ? join(o.dir, `import-${r}.db`) : await pg.newDatabase();
      runs[side].empty.push(timed(db));
      runs[side].again.push(timed(db));
    }
  }
  const best = (xs: number[]) => Math.min(...xs);
  const rows = (['empty', 'again'] as const).map((k) => {
    const [a, b] = [best(runs.sqlite[k]), best(runs.postgres[k])];
    return [k === 'empty' ? 'into an empty database' : 'again (updates)', a, b, ratio(b, a)];
  });
  o.out(table(['import (best of ' + rounds + ')', 'SQLite s', 'PostgreSQL s', 'PG / SQLite (goal <= 2)'], rows));
  return { facilities: importFacilities, listings_per_facility: 50, seconds: runs, rounds };
}
