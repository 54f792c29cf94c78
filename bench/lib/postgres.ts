// `npm run bench -- --db postgres`: a node on PostgreSQL (durable, pinned to the servers' core) against the same node
// on SQLite with the same rows (list, detail, 304), and `listings import` into each.
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { copySqliteToPg } from '../../server/store/pg/copy.ts';
import { openStore } from '../../server/store/store.ts';
import { startPostgres } from '../../test/helpers/postgres.ts';
import type { BenchRun } from './context.ts';
import { createKeys, facilityIdOf, facilityOf, generateDb, listingIdIn } from './data.ts';
import { compare, median } from './measure.ts';
import { sidesTable, table } from './report.ts';
import { capture, differences, headerOf } from './replay.ts';
import { REPO, SERVER_CORE, startOurs } from './servers.ts';

export async function postgres(r: BenchRun) {
  const pg = await startPostgres({ durable: true });
  try {
    const pid = pg.pid();
    if (pid !== undefined) spawnSync('taskset', ['-a', '-p', '-c', SERVER_CORE, String(pid)]);
    // Facility 0 has its own rent link template: the bodies do not carry the server's port, so both sides compare.
    const db = generateDb(r.dir, 'pg-compare', Array(r.quick ? 200 : 1000).fill(50));
    const url = await pg.newDatabase();
    await copySqliteToPg(db.file, url);
    const store = await openStore(url);
    const keys = [
      (await store.createKey({ facilityId: facilityIdOf(0), prefix: 'svc', rate_per_s: 1e9, burst: 1e9 })).key,
    ];
    await store.close();
    keys.push(createKeys(db, [{ facility: 0, rate_per_s: 1e9, burst: 1e9 }])[0]!.key);
    const servers = [r.track(await startOurs('PostgreSQL', url)), r.track(await startOurs('SQLite', db.file))];
    const list = (key: string) => ({ path: '/external/listings', headers: { 'x-api-key': key } });
    const etag = headerOf(await capture(servers[0]!.url + '/external/listings', list(keys[0]!).headers), 'etag')!;
    const scenarios: Record<string, (key: string) => { path: string; headers: Record<string, string> }> = {
      list,
      detail: (key) => ({ path: `/external/listings/${listingIdIn(0, 1)}`, headers: { 'x-api-key': key } }),
      304: (key) => ({ path: '/external/listings', headers: { 'x-api-key': key, 'if-none-match': etag } }),
    };
    const api: Record<string, object> = {};
    for (const [name, request] of Object.entries(scenarios)) {
      const requests = keys.map((key) => [request(key)]);
      const [a, b] = await Promise.all(
        servers.map((s, i) => capture(s.url + requests[i]![0]!.path, requests[i]![0]!.headers)),
      );
      const diff = differences(a!, b!);
      if (diff.length > 0) r.broken.push(`PostgreSQL ${name}: answers differ from SQLite's: ${diff.join('; ')}`);
      const { sides, ratios } = await compare(servers, (i) => requests[i]!, r);
      const entry = { postgres: sides[0]!, sqlite: sides[1]!, ...ratios };
      r.out(`\n${name}:\n${sidesTable(['PostgreSQL', 'SQLite'], sides, ['PostgreSQL / SQLite', ratios])}`);
      api[name] = entry;
    }
    for (const s of servers) await s.stop();
    return { api, import: await importInto(r, () => pg.newDatabase()) };
  } finally {
    await pg.close();
  }
}

/** `listings import FILE` as an operator runs it, into an empty database and again into the same one, per backend. */
async function importInto(r: BenchRun, newDatabase: () => Promise<string>) {
  const file = join(r.dir, 'import.json');
  const facilities = r.quick ? 100 : 1000;
  writeFileSync(file, JSON.stringify({ facilities: Array.from({ length: facilities }, (_, i) => facilityOf(i, 50)) }));
  const timed = (db: string) => {
    const began = performance.now();
    const run = spawnSync(process.execPath, [join(REPO, 'bin', 'listings.js'), 'import', file, '--db', db], {
      cwd: REPO,
      encoding: 'utf8',
    });
    if (run.status !== 0) r.broken.push(`import into ${db}: ${run.stderr}`);
    return (performance.now() - began) / 1000;
  };
  const seconds = {
    sqlite: { empty: [] as number[], again: [] as number[] },
    postgres: { empty: [] as number[], again: [] as number[] },
  };
  for (let i = 0; i < (r.quick ? 1 : 3); i++)
    for (const side of ['sqlite', 'postgres'] as const) {
      const db = side === 'sqlite' ? join(r.dir, `import-${i}.db`) : await newDatabase();
      seconds[side].empty.push(timed(db));
      seconds[side].again.push(timed(db));
    }
  const rows = (['empty', 'again'] as const).map((k) =>
    [k, median(seconds.sqlite[k]), median(seconds.postgres[k])].map((x) =>
      typeof x === 'number' ? Math.round(x * 100) / 100 : x,
    ),
  );
  r.out(
    `\nimport of ${facilities} facilities x 50 listings (median seconds):\n${table(['into', 'SQLite', 'PostgreSQL'], rows)}`,
  );
  return {
    facilities,
    listings_per_facility: 50,
    median_seconds: Object.fromEntries(rows.map(([k, a, b]) => [k, { sqlite: a, postgres: b }])),
  };
}
