// `npm run bench:publish [-- --facilities N --listings M --concurrency C --changes K --out FILE]`: snapshot publish to a
// real S3-compatible server (s3rver, in this process) with the real CLI in a child process. It measures the first
// publish against a baseline in the same run (the same number of PUTs of the same bytes straight through the SDK, no
// database, no signing), an unchanged re-publish, one changed facility (PUTs counted at the wire), and watch mode's
// delay from an import's commit to the pointer's update. It reports and never judges: exit 0 unless something broke.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { openDb } from '../server/store/db.ts';
import { applyImport } from '../server/store/facilities.ts';
import { generateSigningKey } from '../server/snapshots/keygen.ts';
import { startFaultProxy } from '../test/helpers/fault-proxy.ts';
import { startS3 } from '../test/helpers/s3-server.ts';
import { benchFollow } from './lib/follow-bench.ts';
import { facilityIdOf, facilityOf, generateDb } from './lib/data.ts';
import { machine, median, table } from './lib/report.ts';
import { REPO } from './lib/servers.ts';

const { values: args } = parseArgs({
  options: {
    facilities: { type: 'string', default: '1000' },
    listings: { type: 'string', default: '50' },
    concurrency: { type: 'string', default: '16' },
    changes: { type: 'string', default: '10' },
    out: { type: 'string', default: join(REPO, 'bench', 'publish-results.json') },
  },
});
const F = Number(args.facilities);
const L = Number(args.listings);
const C = Number(args.concurrency);
const out = (t: string) => process.stdout.write(t);

// Two cores: the store (this process) on core 0, the publisher on core 1, so they do not take turns on one.
const pinned = existsSync('/usr/bin/taskset');
if (pinned) spawn('taskset', ['-pc', '0', String(process.pid)], { stdio: 'ignore' });
const BIN = join(REPO, 'bin', 'listings.js');

interface Run {
  code: number | null;
  seconds: number;
  stdout: string;
  stderr: string;
}

function runNode(argv: string[], env: NodeJS.ProcessEnv): Promise<Run> {
  const started = performance.now();
  const [cmd, cmdArgs] = pinned
    ? (['taskset', ['-c', '1', process.execPath, ...argv]] as const)
    : ([process.execPath, argv] as const);
  const child = spawn(cmd, cmdArgs, { cwd: REPO, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve) =>
    child.on('close', (code) => resolve({ code, seconds: (performance.now() - started) / 1000, stdout, stderr })),
  );
}

function must(run: Run, what: string): Run {
  if (run.code !== 0) throw new Error(`${what} exited with ${run.code}: ${run.stderr}`);
  return run;
}

const dir = mkdtempSync(join(tmpdir(), 'bench-publish-'));
const s3 = await startS3({ bucket: 'bench' });
try {
  out(
    `bench:publish: ${F} facilities x ${L} listings, concurrency ${C}, ${pinned ? 'store on core 0, publisher on core 1' : 'unpinned (no taskset)'}\n`,
  );
  const db = generateDb(dir, 'publish', F, L);
  const { private_key: keyFile } = await generateSigningKey(join(dir, 'secrets'));
  out(`database generated in ${db.seconds.toFixed(1)} s\n`);
  // Every run goes through one counting proxy: the publisher's local record is per endpoint, so all runs must share it.
  const puts: string[] = [];
  let counting = false;
  const proxy = await startFaultProxy(s3.endpoint, {
    match: (method, path) => (counting && method === 'PUT' && puts.push(path), false),
  });
  const publishArgs = (prefix: string, endpoint = proxy.endpoint, ...extra: string[]) => [
    BIN,
    'snapshot',
    'publish',
    '--db',
    db.file,
    '--to',
    `s3://${s3.bucket}/${prefix}`,
    '--endpoint',
    endpoint,
    '--path-style',
    '--signing-key',
    keyFile,
    '--concurrency',
    String(C),
    '--json',
    ...extra,
  ];

  // 1. First publish, and the baseline: the same PUTs of the same sizes, straight through the SDK.
  const first = must(await runNode(publishArgs('main'), s3.env), 'first publish');
  const summary = JSON.parse(first.stdout) as { objects: number; bytes: number; published: number };
  const baseline = must(
    await runNode(
      [
        '--import',
        'tsx',
        join(REPO, 'bench', 'lib', 'put-baseline.ts'),
        proxy.endpoint,
        s3.bucket,
        String(summary.objects),
        String(Math.round(summary.bytes / summary.objects)),
        String(C),
      ],
      s3.env,
    ),
    'baseline',
  );

  // 2. Nothing changed.
  const unchanged = must(await runNode(publishArgs('main'), s3.env), 'unchanged re-publish');
  const unchangedSummary = JSON.parse(unchanged.stdout) as { objects: number; seconds: number };
  const unchangedObjects = unchangedSummary.objects;

  // 3. One facility changed: every PUT counted at the wire.
  const conn = openDb(db.file, { migrate: false });
  let shift = 0;
  const change = (i: number) => {
    const f = facilityOf(i, L);
    f.listings[0]!.price_gross += ++shift;
    applyImport(conn, { facilities: [f] });
  };
  change(7);
  counting = true;
  const one = must(await runNode(publishArgs('main'), s3.env), 'one-change publish');
  counting = false;
  const dataPuts = puts.filter((p) => !p.includes('/.publish-lock/')).length;

  // 4. Watch mode: commit an import, then poll the pointer until it names a newer version.
  const watcher = spawn(process.execPath, publishArgs('main', proxy.endpoint, '--watch'), {
    cwd: REPO,
    env: { ...process.env, ...s3.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  await new Promise<void>((resolve) => watcher.stdout.once('data', () => resolve()));
  const delays: number[] = [];
  for (let k = 0; k < Number(args.changes); k++) {
    const i = (k * 97) % F;
    const url = s3.objectUrl(`main/${facilityIdOf(i)}/listings.json`);
    const versionNow = () => retried(async () => ((await (await fetch(url)).json()) as { version: number }).version);
    const before = await versionNow();
    change(i);
    const committed = performance.now();
    const deadline = committed + 30_000;
    while ((await versionNow()) === before) {
      if (performance.now() > deadline) throw new Error(`watch: ${facilityIdOf(i)} not published within 30 s`);
      await new Promise((r) => setTimeout(r, 10));
    }
    delays.push(performance.now() - committed);
  }
  watcher.kill('SIGTERM');
  await new Promise((r) => watcher.once('exit', r));

  // 5. A follower: from zero, from a folder (an export of the same database) and from the S3 prefix over plain HTTP;
  // then one facility changed and published to both, and each mirror followed again.
  const folder = join(dir, 'public');
  const exportArgs = [BIN, 'snapshot', 'export', '--db', db.file, '--out', folder, '--signing-key', keyFile];
  must(await runNode(exportArgs, {}), 'export to a folder');
  const followed = await benchFollow({
    dir,
    runNode,
    env: s3.env,
    change: () => change(11),
    publishBoth: async () => {
      const toFolder = [BIN, 'snapshot', 'publish', '--db', db.file, '--to', folder, '--signing-key', keyFile];
      must(await runNode(toFolder, {}), 'publish to the folder');
      must(await runNode(publishArgs('main'), s3.env), 'publish to S3');
    },
    sources: [
      { name: 'folder', base: folder, keys: join(folder, 'keys.json') },
      { name: 's3rver', base: s3.objectUrl('main/'), keys: s3.objectUrl('main/keys.json') },
    ],
  });
  await proxy.stop();
  conn.close();

  const results = {
    machine: machine(),
    date: new Date().toISOString(),
    data: { facilities: F, listings_per_facility: L, concurrency: C, pinned },
    first_publish: {
      seconds: round(first.seconds),
      objects: summary.objects,
      bytes: summary.bytes,
      facilities: summary.published,
    },
    baseline_sdk_puts: { seconds: round(baseline.seconds), objects: summary.objects },
    ratio_baseline_over_ours: round(baseline.seconds / first.seconds),
    // seconds: the whole CLI process, Node's start-up included; publish_seconds: the publish itself, as it reports.
    unchanged_republish: {
      seconds: round(unchanged.seconds),
      publish_seconds: unchangedSummary.seconds,
      objects: unchangedObjects,
    },
    one_changed: {
      seconds: round(one.seconds),
      publish_seconds: (JSON.parse(one.stdout) as { seconds: number }).seconds,
      data_puts: dataPuts,
      all_puts: puts.length,
    },
    watch_commit_to_pointer_ms: {
      median: Math.round(median(delays)),
      worst: Math.round(Math.max(...delays)),
      samples: delays.map(Math.round),
    },
    follow: followed.results,
  };
  out(
    '\n' +
      table(
        ['measure', 'seconds', 'objects', 'note'],
        [
          [
            'first publish (CLI)',
            results.first_publish.seconds,
            summary.objects,
            `${(summary.bytes / 2 ** 20).toFixed(1)} MiB`,
          ],
          [
            'baseline: same PUTs via SDK',
            results.baseline_sdk_puts.seconds,
            summary.objects,
            `ratio baseline/ours ${results.ratio_baseline_over_ours}`,
          ],
          [
            're-publish, unchanged',
            results.unchanged_republish.seconds,
            unchangedObjects,
            `publish itself ${results.unchanged_republish.publish_seconds} s`,
          ],
          [
            're-publish, 1 facility changed',
            results.one_changed.seconds,
            dataPuts,
            `+${puts.length - dataPuts} lock PUT; publish itself ${results.one_changed.publish_seconds} s`,
          ],
        ],
      ),
  );
  out('\n' + table(['follower', 'seconds', 'files', 'note'], followed.rows));
  out(
    `watch: commit -> pointer updated, ${delays.length} changes: median ${results.watch_commit_to_pointer_ms.median} ms, worst ${results.watch_commit_to_pointer_ms.worst} ms\n`,
  );
  const tmp = `${args.out}.tmp`;
  writeFileSync(tmp, JSON.stringify(results, null, 2) + '\n');
  renameSync(tmp, args.out!);
  out(`wrote ${args.out}\n`);
} finally {
  await s3.stop();
  rmSync(dir, { recursive: true, force: true });
}

/** A keep-alive socket the store closed under us is not a bench failure: try again, a few times. */
async function retried<T>(task: () => Promise<T>, attempts = 3): Promise<T> {
  for (let i = 1; ; i++) {
    try {
      return await task();
    } catch (err) {
      if (i >= attempts) throw err;
    }
  }
}

function round(x: number): number {
  return Math.round(x * 100) / 100;
}
