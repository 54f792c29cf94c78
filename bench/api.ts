// `npm run bench [-- --quick | --full | --scenario WORDS | --base DIR | --db postgres]`: our API against a ceiling that
// replays its bytes through the same transport (docs/performance.md, "How to measure"). It reports and never judges:
// the exit code is 1 only if something broke (a server died, answers differ).
import { existsSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { ensureBuilt } from '../tools/build.ts';
import { abuse } from './lib/abuse.ts';
import type { BenchRun } from './lib/context.ts';
import { scale, snapshotExport } from './lib/extra.ts';
import { fieldMix } from './lib/field.ts';
import { handlerAlone } from './lib/handler.ts';
import { wrkInstalled } from './lib/load.ts';
import { oneKeyScenarios } from './lib/one-key.ts';
import { postgres } from './lib/postgres.ts';
import { machine, resultsText } from './lib/report.ts';
import { pinLoadGenerator, REPO, type ServerProcess } from './lib/servers.ts';

const OPTIONS = {
  quick: { type: 'boolean', default: false },
  full: { type: 'boolean', default: false },
  /** Comma-separated words: the scenarios whose name holds one ("field", "abuse", "detail", "304", "scale"...). */
  scenario: { type: 'string' },
  out: { type: 'string' },
  db: { type: 'string', default: 'sqlite' },
  base: { type: 'string' },
  rounds: { type: 'string' },
  duration: { type: 'string', default: '2' },
  connections: { type: 'string', default: '50' },
  help: { type: 'boolean', short: 'h', default: false },
} as const;
const USAGE = `usage: npm run bench [-- options]   (docs/performance.md, "How to measure")
  --quick                every scenario briefly (CI)
  --full                 every scenario, abuse, scale and export
  --scenario WORDS       scenarios whose name holds a word; '"field mix"' names one
  --base DIR             another built checkout's server beside this one (an A/B)
  --db sqlite|postgres   the store (default sqlite)
  --rounds N  --duration S  --connections N  --out FILE`;
const fail = (why: string): never => {
  console.error(`bench: ${why}`);
  process.exit(2);
};
const parsed = (() => {
  try {
    return parseArgs({ options: OPTIONS });
  } catch (err) {
    return fail(`${(err as Error).message}\n${USAGE}`);
  }
})();
if (parsed.values.help) {
  process.stdout.write(`${USAGE}\n`);
  process.exit(0);
}
const args = parsed.values;
if (args.db !== 'sqlite' && args.db !== 'postgres') fail(`--db ${args.db}: expected sqlite or postgres`);
if (!wrkInstalled()) fail('wrk is not installed (apt-get install -y wrk)');
const base = args.base === undefined ? undefined : resolve(args.base);
if (base !== undefined && !existsSync(join(base, 'dist', 'server', 'listings.mjs')))
  fail('--base DIR must be a checkout built with npm run build');
const { quick, full } = { quick: args.quick!, full: args.full! };
const DEFAULT = ['field mix', 'list 200', 'detail 200', 'list 304', 'list 200, request log on'];
// A word in quotes (--scenario '"field mix"') names one scenario exactly; any other word, each scenario that holds it.
const selected = (name: string) =>
  args.scenario !== undefined
    ? args.scenario.split(',').some((w) => (/^".*"$/.test(w) ? w.slice(1, -1) === name : name.includes(w)))
    : full || quick || DEFAULT.includes(name);
// Only a default or full run on SQLite is the committed summary; the others go to the temporary directory.
const committed = !quick && args.scenario === undefined && base === undefined;
const name = args.db === 'postgres' ? 'results-postgres.json' : 'results.json';
const outFile = args.out ?? (committed ? join(REPO, 'bench', name) : join(tmpdir(), `storage-listings-bench-${name}`));

const started = Date.now();
const running: ServerProcess[] = [];
const r: BenchRun = {
  quick,
  full,
  base,
  load: { connections: Number(args.connections), duration: Number(args.duration) },
  warmUp: { connections: Number(args.connections), duration: 1 },
  rounds: Number(args.rounds ?? (quick ? 1 : 6)),
  dir: mkdtempSync(join(tmpdir(), 'listings-bench-')),
  track: (s) => {
    const stop = s.stop;
    const exited = (code: unknown, signal: unknown) => r.broken.push(`${s.name} exited (${signal ?? code})`);
    s.child.once('exit', exited);
    s.stop = () => (s.child.off('exit', exited), stop());
    running.push(s);
    return s;
  },
  broken: [],
  sanity: [],
  out: (text) => process.stdout.write(text),
};

async function main() {
  ensureBuilt((line) => r.out(`${line}\n`)); // `listings serve` runs the bundle: measure the sources as they are
  const env = machine();
  const settings = { ...r.load, rounds: r.rounds, quick, pinned: pinLoadGenerator(env.cores) };
  r.out(`storage-listings API bench: ${env.cpu}, ${env.cores} cores, Node ${env.node}; ${JSON.stringify(settings)}\n`);
  const sqlite = args.db === 'sqlite';
  const field = sqlite && selected('field mix') ? await fieldMix(r) : undefined;
  const fieldHooks = sqlite && selected('field mix, webhooks') ? await fieldMix(r, true) : undefined;
  const oneKey = sqlite ? await oneKeyScenarios(r, selected) : undefined;
  const figures = !sqlite
    ? await postgres(r)
    : {
        field_mix: field,
        field_mix_webhooks: fieldHooks,
        scenarios: oneKey?.entries,
        abuse: selected('abuse') ? await abuse(r) : undefined,
        scale: selected('scale') ? await scale(r) : undefined,
        snapshot_export: selected('export') ? snapshotExport(r) : undefined,
        handler_alone: selected('handler alone') ? await handlerAlone(r) : undefined,
      };
  // Other processes on these two cores skew every figure, pinned or not: said beside the figures.
  if (loadavg()[0]! > env.cores)
    r.sanity.push(`load average ${loadavg()[0]!.toFixed(2)} at the end: other processes shared the cores`);
  r.out(`\nsanity (figures not to quote):${['', ...r.sanity].join('\n- ') || ' none'}\n`);
  const report = {
    date: new Date().toISOString(),
    command: `npm run bench${process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(' ')}` : ''}`,
    machine: { ...env, loadavg_at_end: loadavg().map((l) => Math.round(l * 100) / 100) },
    settings: { ...settings, ...oneKey?.database },
    ...figures,
    sanity: r.sanity,
    broken: r.broken,
    seconds: Math.round((Date.now() - started) / 1000),
  };
  writeFileSync(`${outFile}.tmp`, resultsText(report) + '\n');
  renameSync(`${outFile}.tmp`, outFile); // a run stopped mid-write leaves the previous results whole
  r.out(`\nwrote ${outFile} (${report.seconds} s)\n`);
}

main()
  .catch((err: Error) => r.broken.push(err.stack ?? String(err)))
  .finally(async () => {
    for (const s of running) await s.stop().catch(() => undefined);
    rmSync(r.dir, { recursive: true, force: true });
    if (r.broken.length > 0) {
      console.error(`bench: something broke:\n- ${r.broken.join('\n- ')}`);
      process.exitCode = 1;
    }
  });
