// The full run's other measures: the same load on 10 and on 10,000 facilities (per-request work must not grow with
// the data), and a signed snapshot export, timed from outside.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import type { BenchRun } from './context.ts';
import { generateDb, issueKeys } from './data.ts';
import { pairedRounds, ratiosOf, sideOf } from './measure.ts';
import { sidesTable } from './report.ts';
import { REPO, startOurs } from './servers.ts';

export async function scale(r: BenchRun) {
  const dbs = [generateDb(r.dir, 'small', 10, 50), generateDb(r.dir, 'large', r.quick ? 1000 : 10_000, 50)];
  const servers = await Promise.all(
    dbs.map(async (db) => r.track(await startOurs(`${db.facilities} facilities`, db.file))),
  );
  // Lists rotating over 10 facilities' keys on each.
  const requests = dbs.map((db) =>
    issueKeys(db, 10).map((key) => ({ path: '/external/listings', headers: { 'x-api-key': key } })),
  );
  await pairedRounds(servers, requests, r.warmUp, 1);
  const [small, large] = await pairedRounds(servers, requests, r.load, r.rounds);
  for (const s of servers) await s.stop();
  const entry = {
    facilities: dbs.map((db) => db.facilities),
    small: sideOf(small!),
    large: sideOf(large!),
    ...ratiosOf(large!, small!),
  };
  r.out(`\nscale: ${dbs[0]!.facilities} against ${dbs[1]!.facilities} facilities x 50 listings:\n`);
  r.out(
    sidesTable(
      [
        [`${dbs[1]!.facilities} facilities`, entry.large],
        [`${dbs[0]!.facilities} facilities`, entry.small],
      ],
      entry,
    ),
  );
  return entry;
}

/** `listings snapshot keygen`, then `listings snapshot export` of every facility, signed. */
export function snapshotExport(r: BenchRun) {
  const db = generateDb(r.dir, 'export', r.quick ? 200 : 1000, 50);
  const listings = (...args: string[]) =>
    execFileSync(process.execPath, [join(REPO, 'bin', 'listings.js'), ...args], {
      cwd: REPO,
      maxBuffer: 1 << 26,
      stdio: 'pipe',
    });
  listings('snapshot', 'keygen', '--out', join(r.dir, 'secrets'), '--json');
  const began = performance.now();
  const out = listings(
    '--db',
    db.file,
    'snapshot',
    'export',
    '--out',
    join(r.dir, 'public'),
    '--signing-key',
    join(r.dir, 'secrets', 'signing-key.pem'),
    '--json',
  );
  const summary = JSON.parse(out.toString()) as {
    facilities: number;
    listings: number;
    bytes: number;
    seconds: number;
  };
  const result = {
    facilities: summary.facilities,
    listings: summary.listings,
    megabytes: Math.round(summary.bytes / 10_485.76) / 100,
    export_seconds: summary.seconds,
    wall_seconds: Math.round(performance.now() - began) / 1000,
    facilities_per_s: Math.round(summary.facilities / summary.seconds),
  };
  r.out(
    `\nsnapshot export (signed): ${result.facilities} facilities, ${result.megabytes} MB in ${result.export_seconds} s; ${result.wall_seconds} s with start-up\n`,
  );
  return result;
}
