// The full run's other measures: 10 against 10,000 facilities, and a signed snapshot export.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import type { BenchRun } from './context.ts';
import { generateDb, issueKeys } from './data.ts';
import { compare } from './measure.ts';
import { sidesTable } from './report.ts';
import { REPO, startOurs } from './servers.ts';

export async function scale(r: BenchRun) {
  const dbs = [
    generateDb(r.dir, 'large', Array(r.quick ? 1000 : 10_000).fill(50)),
    generateDb(r.dir, 'small', Array(10).fill(50)),
  ];
  const servers = await Promise.all(
    dbs.map(async (db) => r.track(await startOurs(`${db.facilities} facilities`, db.file))),
  );
  // Lists rotating over 10 facilities' keys on each.
  const requests = dbs.map((db) =>
    issueKeys(db, 10).map((key) => ({ path: '/external/listings', headers: { 'x-api-key': key } })),
  );
  const { sides, ratios } = await compare(servers, (i) => requests[i]!, r);
  for (const s of servers) await s.stop();
  const [large, small] = dbs.map((db) => `${db.facilities} facilities`);
  const entry = { facilities: [dbs[1]!.facilities, dbs[0]!.facilities], small: sides[1]!, large: sides[0]!, ...ratios };
  r.out(`\nscale: ${small} against ${large} x 50 listings:\n`);
  r.out(sidesTable([large!, small!], sides, [`${large} / ${small}`, ratios]));
  return entry;
}

/** `listings snapshot keygen`, then `listings snapshot export` of every facility, signed. */
export function snapshotExport(r: BenchRun) {
  const db = generateDb(r.dir, 'export', Array(r.quick ? 200 : 1000).fill(50));
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
