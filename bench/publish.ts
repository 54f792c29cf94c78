// `npm run bench:publish [-- --facilities N --listings L --concurrency C --out FILE]`: snapshot publish to a real S3
// server (s3rver) against the same PUTs through the SDK, re-publishes unchanged and with one change, watch mode's
// delay, and a follower mirroring the target from zero and after one change.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { openDb } from '../server/store/db.ts';
import { applyImport } from '../server/store/facilities.ts';
import { generateSigningKey } from '../server/snapshots/format/keygen.ts';
import { startFaultProxy } from '../test/helpers/fault-proxy.ts';
import { startS3 } from '../test/helpers/s3-server.ts';
import { facilityIdOf, facilityOf, generateDb } from './lib/data.ts';
import { followOnce } from './lib/follow.ts';
import { median } from './lib/measure.ts';
import { machine, resultsText } from './lib/report.ts';
import { REPO } from './lib/servers.ts';

const { values: args } = parseArgs({
  options: {
    facilities: { type: 'string', default: '2000' },
    listings: { type: 'string', default: '100' },
    concurrency: { type: 'string', default: '16' },
    out: { type: 'string', default: join(REPO, 'bench', 'publish-results.json') },
  },
});
const [F, L, C] = [Number(args.facilities), Number(args.listings), Number(args.concurrency)];
// The store (this process) on core 0, the publisher on core 1, so that they do not take turns on one.
const pinned = existsSync('/usr/bin/taskset');
if (pinned) spawn('taskset', ['-pc', '0', String(process.pid)], { stdio: 'ignore' });
const round = (x: number) => Math.round(x * 100) / 100;

/** `node ARGV` on core 1; resolves with its output and wall time in seconds, or throws if it fails. */
function runNode(argv: string[], env: NodeJS.ProcessEnv) {
  const began = performance.now();
  const [cmd, rest] = pinned ? ['taskset', ['-c', '1', process.execPath, ...argv]] : [process.execPath, argv];
  const child = spawn(cmd, rest, { cwd: REPO, env: { ...process.env, ...env } });
  let [stdout, stderr] = ['', ''];
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise<{ seconds: number; json: { objects: number; bytes: number; seconds: number } }>(
    (resolve, reject) =>
      child.on('close', (code) => {
        if (code !== 0) return reject(new Error(`${argv.slice(0, 3).join(' ')} exited with ${code}: ${stderr}`));
        resolve({ seconds: round((performance.now() - began) / 1000), json: stdout ? JSON.parse(stdout) : {} });
      }),
  );
}

const dir = mkdtempSync(join(tmpdir(), 'bench-publish-'));
const s3 = await startS3({ bucket: 'bench' });
try {
  const db = generateDb(dir, 'publish', Array(F).fill(L));
  const { private_key: keyFile } = await generateSigningKey(join(dir, 'secrets'));
  // Every run goes through one counting proxy: the publisher's local record is per endpoint.
  const puts: string[] = [];
  let counting = false;
  const proxy = await startFaultProxy(s3.endpoint, {
    match: (method, path) => (counting && method === 'PUT' && puts.push(path), false),
  });
  const publish = (...extra: string[]) => [
    ...[join(REPO, 'bin', 'listings.js'), 'snapshot', 'publish', '--db', db.file, '--to', `s3://${s3.bucket}/main`],
    ...['--endpoint', proxy.endpoint, '--path-style', '--signing-key', keyFile, '--concurrency', String(C), '--json'],
    ...extra,
  ];
  const first = await runNode(publish(), s3.env);
  const { objects, bytes } = first.json;
  const putArgs = [proxy.endpoint, s3.bucket, objects, Math.round(bytes / objects), C].map(String);
  const baseline = await runNode(
    ['--import', 'tsx', join(REPO, 'bench', 'lib', 'put-baseline.ts'), ...putArgs],
    s3.env,
  );
  const unchanged = await runNode(publish(), s3.env);
  const conn = openDb(db.file, { migrate: false });
  let shift = 0;
  const change = (i: number) => {
    const f = facilityOf(i, L);
    f.listings[0]!.price_gross += ++shift;
    applyImport(conn, { facilities: [f] });
  };
  change(7);
  counting = true;
  const one = await runNode(publish(), s3.env);
  counting = false;

  // Watch mode: commit an import, then poll the pointer until it names a newer version.
  const watcher = spawn(process.execPath, publish('--watch'), { cwd: REPO, env: { ...process.env, ...s3.env } });
  watcher.stderr.resume();
  await new Promise((resolve) => watcher.stdout.once('data', resolve));
  const delays: number[] = [];
  for (let k = 0; k < 10; k++) {
    const i = (k * 97) % F;
    const url = s3.objectUrl(`main/${facilityIdOf(i)}/listings.json`);
    // A keep-alive socket the store closed under us is not a failure: asked again.
    const version = async (): Promise<number> =>
      fetch(url)
        .then(async (res) => ((await res.json()) as { version: number }).version)
        .catch(version);
    const before = await version();
    change(i);
    const committed = performance.now();
    while ((await version()) === before) {
      if (performance.now() > committed + 30_000) throw new Error(`watch: ${facilityIdOf(i)} not published in 30 s`);
      await new Promise((r) => setTimeout(r, 10));
    }
    delays.push(performance.now() - committed);
  }
  watcher.kill('SIGTERM');
  await new Promise((r) => watcher.once('exit', r));

  // An aggregator's follower: from zero, then after one more change and its publish.
  const followed = join(dir, 'mirror');
  const followBase = s3.objectUrl('main');
  const core = pinned ? '1' : undefined;
  const fromZero = await followOnce(followBase, followed, core);
  change(11);
  await runNode(publish(), s3.env);
  const afterOne = await followOnce(followBase, followed, core);
  await proxy.stop();
  conn.close();

  // seconds: the whole CLI process, Node's start-up included; publish_seconds: the publish itself, as it reports.
  const results = {
    machine: machine(),
    date: new Date().toISOString(),
    data: { facilities: F, listings_per_facility: L, concurrency: C, pinned },
    first_publish: { seconds: first.seconds, objects, bytes },
    baseline_sdk_puts: { seconds: baseline.seconds, objects },
    ratio_baseline_over_ours: round(baseline.seconds / first.seconds),
    unchanged_republish: {
      seconds: unchanged.seconds,
      publish_seconds: unchanged.json.seconds,
      objects: unchanged.json.objects,
    },
    one_changed: {
      seconds: one.seconds,
      publish_seconds: one.json.seconds,
      data_puts: puts.filter((p) => !p.includes('/.publish-lock/')).length,
      all_puts: puts.length,
    },
    watch_commit_to_pointer_ms: { median: Math.round(median(delays)), worst: Math.round(Math.max(...delays)) },
    follow_from_zero: fromZero,
    follow_after_one_change: afterOne,
  };
  const text = resultsText(results);
  writeFileSync(`${args.out}.tmp`, text + '\n');
  renameSync(`${args.out}.tmp`, args.out!);
  process.stdout.write(`${text}\nwrote ${args.out}\n`);
} finally {
  await s3.stop();
  rmSync(dir, { recursive: true, force: true });
}
