// `npm run bench:ab -- --base DIR`: this checkout's server against another built checkout's, in paired rounds with a
// ceiling, for changes too small to see through the full bench's run-to-run noise (about ±0.03). `--scenario field`
// replays the field mix's rotation (bench/lib/field-mix.ts, the quick database with --quick) instead of one request. DIR is a checkout
// with `npm run build` done, e.g. the previous commit: `git worktree add /tmp/base HEAD~1`, then in it
// `ln -s "$PWD/node_modules" /tmp/base/node_modules && (cd /tmp/base && npm run build)`. Each repeat starts fresh
// processes (a Node process settles in a faster or slower state), pinned as `npm run bench` pins them. wrk only.
// `--log`: both servers write the request log (to /dev/null), as the bench's request-log row runs them.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { generateDb, issueKeys, listingIdIn } from './lib/data.ts';
import { runWrk, wrkInstalled, type BenchRequest } from './lib/load.ts';
import { measure, type Round } from './lib/measure.ts';
import { median, table } from './lib/report.ts';
import { pairedRatio } from './lib/scenarios.ts';
import { capture } from './lib/capture.ts';
import { pinLoadGenerator, startOurs, type ServerProcess } from './lib/servers.ts';
import { captureRotation } from './lib/field-capture.ts';
import { FIELD_FULL, FIELD_QUICK, fieldRotation, generateFieldDb, issueFieldKeys } from './lib/field-mix.ts';
import { startCeiling } from './lib/ceilings.ts';
import { Agent } from 'node:http';

const { values: args } = parseArgs({
  options: {
    base: { type: 'string' },
    scenario: { type: 'string', default: 'detail' },
    rounds: { type: 'string', default: '6' },
    repeat: { type: 'string', default: '4' },
    quick: { type: 'boolean', default: false },
    log: { type: 'boolean', default: false },
  },
});
const base = args.base === undefined ? undefined : resolve(args.base);
if (base === undefined || !existsSync(join(base, 'dist', 'server', 'listings.mjs'))) {
  process.stderr.write(
    'error: --base DIR must be a checkout built with npm run build (DIR/dist/server/listings.mjs)\n',
  );
  process.exit(2);
}
if (!wrkInstalled()) {
  process.stderr.write('error: bench:ab needs wrk (apt-get install -y wrk)\n');
  process.exit(2);
}
const load = { connections: 50, pipelining: 1, duration: 2 };
const dir = mkdtempSync(join(tmpdir(), 'bench-ab-'));
try {
  process.stdout.write(`${pinLoadGenerator(2)}\n`);
  const setup = args.scenario === 'field' ? fieldMix(dir, args.quick) : oneRequest(dir, args.scenario);
  const rows: (string | number)[][] = [];
  for (let repeat = 1; repeat <= Number(args.repeat); repeat++) {
    const trustProxy = args.scenario === 'field' ? '127.0.0.1' : undefined;
    // The build started and warmed first runs faster, for no known reason: the builds take turns at starting first,
    // one repeat each, and the table says which went first.
    const baseFirst = repeat % 2 === 1;
    const start = [
      () => startOurs('base', setup.file, { checkout: base, trustProxy, log: args.log }),
      () => startOurs('this', setup.file, { trustProxy, log: args.log }),
    ];
    const first = await start[baseFirst ? 0 : 1]!();
    const second = await start[baseFirst ? 1 : 0]!();
    const [baseSide, thisSide] = baseFirst ? [first, second] : [second, first];
    const sides: ServerProcess[] = [baseSide, thisSide];
    const requests = setup.requests();
    // Both sides see every distinct request once (the first started first) before the ceiling is made from this side's.
    if (baseFirst) await setup.warm(baseSide);
    sides.push(await setup.ceilingOf(thisSide));
    if (!baseFirst) await setup.warm(baseSide);
    const rounds = new Map<ServerProcess, Round[]>(sides.map((s) => [s, []]));
    try {
      for (const s of sides) await runWrk(s.url, requests, load); // warm-up
      for (let r = 0; r < Number(args.rounds); r++) {
        // Each round starts elsewhere in a rotation, the same place for every side.
        const start = Math.floor((r * requests.length) / Number(args.rounds));
        for (const s of r % 2 ? [...sides].reverse() : sides)
          rounds.get(s)!.push(await measure(runWrk, s, requests, { ...load, start }));
      }
    } finally {
      for (const s of sides) await s.stop();
    }
    const [b, t, c] = sides.map((s) => rounds.get(s)!) as [Round[], Round[], Round[]];
    const cpu = (x: Round) => x.cpu_us_per_req;
    const rps = (x: Round) => x.rps;
    rows.push([
      `${repeat} (${baseFirst ? 'base' : 'this'} first)`,
      Math.round(median(b.map(rps))),
      Math.round(median(t.map(rps))),
      pairedRatio(t, b, rps),
      pairedRatio(t, b, cpu),
      pairedRatio(b, c, rps),
      pairedRatio(t, c, rps),
    ]);
  }
  process.stdout.write(
    `${args.scenario === 'field' ? 'field mix' : args.scenario}${args.log ? ', request log on' : ''}, ${args.rounds} paired rounds of 2 s per repeat (wrk, 50 connections); this = ${process.cwd()}, base = ${base}:\n` +
      table(
        ['repeat', 'base req/s', 'this req/s', 'this/base req/s', 'this/base CPU', 'base/ceiling', 'this/ceiling'],
        rows,
      ) +
      `this/base req/s over all repeats (geometric mean; an even count cancels the start order): ${geomean(rows.map((r) => r[3] as number)).toFixed(3)}\n`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}

interface AbSetup {
  file: string;
  /** Called once the servers run (the field mix issues its keys then, as the bench does). */
  requests: () => BenchRequest[];
  /** A ceiling replaying what `ours` answers to the requests (having asked each once, as warm() does). */
  ceilingOf: (ours: ServerProcess) => Promise<ServerProcess>;
  /** Asks a server every distinct request once, so that first-sight costs stay out of the rounds. */
  warm: (ours: ServerProcess) => Promise<unknown>;
}

function oneRequest(dir: string, scenario: string): AbSetup {
  const data = generateDb(dir, 'ab', 1000, 50);
  const key = issueKeys(data, 1)[0]!;
  const requests: Record<string, BenchRequest> = {
    detail: { path: `/external/listings/${listingIdIn(0, 7)}`, headers: { 'x-api-key': key } },
    list: { path: '/external/listings', headers: { 'x-api-key': key } },
    br: { path: '/external/listings', headers: { 'x-api-key': key, 'accept-encoding': 'br, gzip' } },
  };
  const request = requests[scenario];
  if (!request) throw new Error(`--scenario must be field or one of ${Object.keys(requests).join(', ')}`);
  return {
    file: data.file,
    requests: () => [request],
    ceilingOf: async (ours) =>
      startCeiling([{ request, answer: await capture(ours.url + request.path, request.headers) }]),
    warm: (ours) => capture(ours.url + request.path, request.headers),
  };
}

/** The field mix's database, keys and rotation; its ceiling replays the answers captured from `ours`. */
function fieldMix(dir: string, quick: boolean): AbSetup {
  // The field mix's own database: one large facility (the abuse scenario's are not part of it).
  const settings = { ...(quick ? FIELD_QUICK : FIELD_FULL), unkeyedLarge: 0 };
  const db = generateFieldDb(dir, settings);
  let rotation: ReturnType<typeof fieldRotation> | undefined;
  const warm = async (ours: ServerProcess) => {
    if (!rotation) throw new Error('the field mix captured before its keys were issued');
    const agent = new Agent({ keepAlive: true, maxSockets: 4 });
    const problems = { broken: [] as string[], sanity: [] as string[] };
    const { distinct } = await captureRotation(rotation, ours, agent, problems);
    agent.destroy();
    if (problems.broken.length > 0) throw new Error(problems.broken.join('\n'));
    return distinct;
  };
  return {
    file: db.file,
    requests: () => (rotation ??= fieldRotation(issueFieldKeys(db, settings), settings)),
    ceilingOf: async (ours) => startCeiling((await warm(ours)).values()),
    warm,
  };
}

function geomean(xs: number[]): number {
  return Math.exp(xs.reduce((sum, x) => sum + Math.log(x), 0) / xs.length);
}
