// The bench's other measures: 10 vs 10,000 facilities, RSS over a sustained run, and signed snapshot export throughput.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { openDb } from '../../server/store/db.ts';
import { facilityOfKey, generateDb, issueKeys, listingIdIn, type BenchDb } from './data.ts';
import type { BenchRequest, Generator, Load } from './load.ts';
import { measure, type Round } from './measure.ts';
import { median, ratio, sideOf, table } from './report.ts';
import { cpuMs, rssMb } from './proc.ts';
import { REPO, startOurs, type ServerProcess } from './servers.ts';

type Out = (text: string) => void;
const listOf = (key: string): BenchRequest => ({ path: '/external/listings', headers: { 'x-api-key': key } });

/**
 * The same load (lists, rotating over 10 facilities' keys) on a database of 10 facilities and one of 10,000: per-request
 * work must not grow with the data. --quick compares against the main database instead of generating 10,000.
 */
export async function measureScale(
  dir: string,
  generators: [string, Generator][],
  load: Load,
  rounds: number,
  instead: BenchDb | undefined,
  track: (s: ServerProcess) => ServerProcess,
  out: Out,
) {
  const small = generateDb(dir, 'small', 10, 50);
  const large = instead ?? generateDb(dir, 'large', 10_000, 50);
  out(
    `\nscale: ${small.facilities} vs ${large.facilities} facilities x 50 listings (large one generated in ${large.seconds.toFixed(1)} s)\n`,
  );
  const servers = [
    track(await startOurs(`ours, ${small.facilities} facilities`, small.file)),
    track(await startOurs(`ours, ${large.facilities} facilities`, large.file)),
  ];
  const requests = [issueKeys(small, 10), issueKeys(large, 10)].map((keys) => keys.map(listOf));
  for (const [i, s] of servers.entries()) await generators[0]![1](s.url, requests[i]!, { ...load, duration: 1 });
  const result: Record<string, unknown> = {};
  const rows: (string | number)[][] = [];
  for (const [gen, run] of generators) {
    const figures: Round[][] = [[], []];
    for (let r = 0; r < rounds; r++) {
      // Alternate who goes first, so neither side always runs on the other's warmed-up (or tired) machine.
      for (const i of r % 2 === 0 ? [0, 1] : [1, 0])
        figures[i]!.push(await measure(run, servers[i]!, requests[i]!, load));
    }
    const [a, b] = [sideOf(figures[0]!), sideOf(figures[1]!)];
    result[gen] = { [`${small.facilities}`]: a, [`${large.facilities}`]: b, ratio_rps: ratio(b.rps, a.rps) };
    rows.push([
      gen,
      a.rps,
      b.rps,
      ratio(b.rps, a.rps),
      a.p99_ms,
      b.p99_ms,
      a.cpu_us_per_req,
      b.cpu_us_per_req,
      a.rss_mb,
      b.rss_mb,
    ]);
  }
  for (const s of servers) await s.stop();
  const [n, m] = [small.facilities, large.facilities].map((f) => f.toLocaleString('en-US'));
  out(
    table(
      [
        'generator',
        `${n} fac req/s`,
        `${m} fac req/s`,
        'ratio',
        `${n} p99 ms`,
        `${m} p99 ms`,
        `${n} CPU µs/req`,
        `${m} CPU µs/req`,
        `${n} RSS MB`,
        `${m} RSS MB`,
      ],
      rows,
    ),
  );
  return { facilities: [small.facilities, large.facilities], generated_seconds: large.seconds, ...result };
}

/** 60 s of lists and details rotating over the keys' facilities (100), RSS read every second. */
export async function sustained(
  db: BenchDb,
  keys: string[],
  ours: ServerProcess,
  [gen, run]: [string, Generator],
  load: Load,
  out: Out,
) {
  const requests = keys.flatMap((key, k) => [
    listOf(key),
    {
      path: `/external/listings/${listingIdIn(facilityOfKey(db, k, keys.length), k % db.sizes[facilityOfKey(db, k, keys.length)]!)}`,
      headers: { 'x-api-key': key },
    },
  ]);
  await run(ours.url, requests, { ...load, duration: 5 }); // fills the caches first
  const samples: number[] = [];
  const sampler = setInterval(() => samples.push(Math.round(rssMb(ours.pid) * 10) / 10), 1000);
  const cpu = cpuMs(ours.pid);
  const figures = await run(ours.url, requests, { ...load, duration: 60 });
  const cpuUsPerReq = Math.round(((cpuMs(ours.pid) - cpu) * 10_000) / figures.requests) / 10;
  clearInterval(sampler);
  const first = median(samples.slice(0, 10));
  const last = median(samples.slice(-10));
  const summary = {
    generator: gen,
    seconds: 60,
    rps: Math.round(figures.rps),
    p99_ms: figures.p99,
    cpu_us_per_req: cpuUsPerReq,
    rss_mb: samples,
    first_10s_median_mb: first,
    last_10s_median_mb: last,
    max_mb: Math.max(...samples),
    growth_mb: Math.round((last - first) * 10) / 10,
  };
  out(
    `\nsustained 60 s (${gen}, ${requests.length} requests rotating over ${keys.length} facilities): ${summary.rps} req/s, p99 ${figures.p99.toFixed(2)} ms, ${cpuUsPerReq} µs CPU per request\n`,
  );
  out(
    `  RSS MB per second: ${samples.join(' ')}\n  first 10 s median ${first} MB, last 10 s median ${last} MB, max ${summary.max_mb} MB, growth ${summary.growth_mb} MB\n`,
  );
  return summary;
}

const execFileP = promisify(execFile);

/** `listings snapshot keygen` + `listings snapshot export` (every facility, signed), timed from outside. */
export async function exportThroughput(dir: string, db: BenchDb, out: Out) {
  if (!existsSync(join(REPO, 'server', 'snapshots', 'export.ts'))) {
    out('\nsnapshot export: not measured (server/snapshots/export.ts does not exist yet)\n');
    return undefined;
  }
  const bin = join(REPO, 'bin', 'listings.js');
  await execFileP(process.execPath, [bin, 'snapshot', 'keygen', '--out', join(dir, 'secrets'), '--json'], {
    cwd: REPO,
  });
  const started = performance.now();
  const { stdout } = await execFileP(
    process.execPath,
    [
      bin,
      '--db',
      db.file,
      'snapshot',
      'export',
      '--out',
      join(dir, 'public'),
      '--signing-key',
      join(dir, 'secrets', 'signing-key.pem'),
      '--json',
    ],
    { cwd: REPO, maxBuffer: 64 * 1024 * 1024 },
  );
  const wall = (performance.now() - started) / 1000;
  const summary = JSON.parse(stdout) as { facilities: number; listings: number; bytes: number; seconds: number };
  const result = {
    facilities: summary.facilities,
    listings: summary.listings,
    megabytes: Math.round(summary.bytes / 1024 / 10.24) / 100,
    export_seconds: summary.seconds,
    wall_seconds: Math.round(wall * 100) / 100,
    facilities_per_s: Math.round(summary.facilities / summary.seconds),
    facilities_per_s_wall: Math.round(summary.facilities / wall),
  };
  out(
    `\nsnapshot export (signed, Ed25519): ${result.facilities} facilities, ${result.listings} listings, ${result.megabytes} MB in ${result.export_seconds} s (${result.facilities_per_s} facilities/s); ${result.wall_seconds} s with process start-up\n`,
  );
  return result;
}

/** What the freshness check costs: `PRAGMA data_version` through a prepared statement, as the server runs it once per batch of requests. */
export function freshnessCheckCost(file: string, out: Out) {
  const db = openDb(file, { migrate: false });
  try {
    const check = db.prepare('PRAGMA data_version').pluck();
    for (let i = 0; i < 5_000; i++) check.get();
    const calls = 50_000;
    const started = performance.now();
    for (let i = 0; i < calls; i++) check.get();
    const us = Math.round(((performance.now() - started) * 1000 * 100) / calls) / 100;
    out(`freshness check (PRAGMA data_version, once per batch of requests): ${us} µs per call on this machine\n`);
    return { pragma_data_version_us: us };
  } finally {
    db.close();
  }
}
