// `npm run demo:compare`: a comparison site's back end on the operator's signed snapshots, with no API key: it follows the
// published folder (the index once, then the change feed) into a verified mirror and ranks every unit by what its first
// three months cost a new tenant, promotions and move-in costs included (pages/first-months.js), as of when it renders.
import { existsSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { majorUnits } from '../shared/format.ts';
import type { Snapshot } from '../shared/listing.ts';
import { demoPaths } from '../cli/demo-site.ts';
import { ListingsError } from '../server/errors.ts';
import { REPO_ROOT } from '../server/repo.ts';
import type { IndexFile } from '../server/snapshots/format/feed-format.ts';
import { followOnce, type FollowSummary } from '../server/snapshots/follow/follow.ts';
import { termsAt } from '../widget/src/snapshot-terms.ts';
import { firstPeriodsCost } from './pages/first-months.js';

const DEMO = demoPaths(join(REPO_ROOT, 'data', 'demo.db'));

class CompareError extends Error {
  override name = 'CompareError';
}

interface Settings {
  /** The published folder (a path or an http(s) URL), its keys.json, and the mirror this site keeps. */
  base: string;
  keys: string;
  mirror: string;
}

/** LISTINGS_SNAPSHOTS, LISTINGS_SNAPSHOT_KEYS and LISTINGS_MIRROR, or else what `npm start` publishes under data/. */
function settingsOf(env: NodeJS.ProcessEnv): Settings {
  const base = env.LISTINGS_SNAPSHOTS || join(DEMO.site, 'snapshots');
  const isUrl = /^https?:\/\//i.test(base);
  if (!isUrl && !existsSync(join(base, 'index.json')))
    throw new CompareError(
      `no published folder at ${shown(base)}: run \`npm start\` first (it signs the demo's snapshots there), or set LISTINGS_SNAPSHOTS`,
    );
  const keys =
    env.LISTINGS_SNAPSHOT_KEYS || (isUrl ? `${base.replace(/\/+$/, '')}/keys.json` : join(base, 'keys.json'));
  return { base, keys, mirror: env.LISTINGS_MIRROR || join(REPO_ROOT, 'data', 'demo-follow') };
}

const shown = (path: string) =>
  /^https?:/.test(path) || relative(process.cwd(), path).startsWith('..') ? path : relative(process.cwd(), path);

interface Row {
  facility: string;
  unit: string;
  area: string;
  price: string;
  perM2: string;
  firstMonths: string;
  free: string;
  currency: string;
  firstMonthsMinor: number;
}

/**
 * Every unit, cheapest first three months first within each currency (prices compare only within one). A snapshot's
 * schedule and move-in are as of its generated_at; what a tenant pays at `now` is computed from the promotions it
 * carries with their times, by the widget's own function (the shared pricing module), as the widget does.
 */
function rowsOf(lists: readonly Pick<Snapshot, 'facility' | 'listings'>[], now: number): Row[] {
  return lists
    .flatMap(({ facility, listings }) =>
      listings.map((l) => {
        const perM2Minor = Math.round(l.price.gross / l.area_m2);
        const { schedule, move_in } = termsAt(l, facility, now);
        const firstMonthsMinor = firstPeriodsCost({ schedule, move_in: move_in ?? l.move_in });
        const period = l.price.period === 'P1M' ? '' : ` / ${l.price.period}`;
        const promoted = schedule.some((run) => run.promotion !== null) ? ' *' : '';
        return {
          facility: facility.name,
          unit: `${l.code}  ${l.title}`,
          area: `${l.area_m2} m²`,
          price: `${l.price.currency} ${majorUnits(l.price.gross, l.price.currency)}${period}`,
          perM2: `${l.price.currency} ${majorUnits(perM2Minor, l.price.currency)}`,
          firstMonths: `${l.price.currency} ${majorUnits(firstMonthsMinor, l.price.currency)}${promoted}`,
          free: l.free_units === 0 ? 'sold out' : String(l.free_units),
          currency: l.price.currency,
          firstMonthsMinor,
        };
      }),
    )
    .sort(
      (a, b) =>
        a.currency.localeCompare(b.currency) || a.firstMonthsMinor - b.firstMonthsMinor || a.unit.localeCompare(b.unit),
    );
}

const COLUMNS: { key: keyof Row; title: string; right?: boolean }[] = [
  { key: 'facility', title: 'FACILITY' },
  { key: 'unit', title: 'UNIT' },
  { key: 'area', title: 'AREA', right: true },
  { key: 'price', title: 'PRICE / MONTH', right: true },
  { key: 'perM2', title: 'PER M²', right: true },
  { key: 'firstMonths', title: 'FIRST 3 MONTHS', right: true },
  { key: 'free', title: 'FREE', right: true },
];

/** Aligned columns (numbers right-aligned), a blank line between currencies: prices compare only within one. */
function formatTable(rows: Row[]): string {
  const widths = COLUMNS.map((c) => Math.max(c.title.length, ...rows.map((r) => String(r[c.key]).length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => (COLUMNS[i]!.right ? cell.padStart(widths[i]!) : cell.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd();
  const out = [line(COLUMNS.map((c) => c.title))];
  rows.forEach((r, i) => {
    if (i > 0 && rows[i - 1]!.currency !== r.currency) out.push('');
    out.push(line(COLUMNS.map((c) => String(r[c.key]))));
  });
  return out.join('\n');
}

interface Mirrored {
  index: IndexFile;
  snapshots: Snapshot[];
}

/** What the mirror holds now: every file in it verified before it was moved in. */
function readMirror(dir: string): Mirrored {
  const index = JSON.parse(readFileSync(join(dir, 'index.json'), 'utf8')) as IndexFile;
  const snapshots = index.facilities.map(
    (f) => JSON.parse(readFileSync(join(dir, f.id, 'listings.json'), 'utf8')) as Snapshot,
  );
  return { index, snapshots };
}

/** One line per facility: how many units, the lowest monthly price with free units, and when its content last changed. */
function facilityLines({ index }: Mirrored): string {
  const when = (iso: string) => iso.replace('T', ' ').replace(/:\d{2}Z$/, ' UTC');
  const rows = index.facilities.map((f) => [
    f.name,
    String(f.listings),
    f.from_price ? `${f.from_price.currency} ${majorUnits(f.from_price.gross, f.from_price.currency)}` : '-',
    `v${f.version}`,
    when(f.updated_at),
  ]);
  const head = ['FACILITY', 'UNITS', 'FROM / MONTH', 'VERSION', 'LAST CHANGED'];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  return [head, ...rows]
    .map((r) => r.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  '))
    .join('\n');
}

function runLine(s: FollowSummary): string {
  const ms = `${Math.round(s.seconds * 1000)} ms`;
  if (s.mode === 'unchanged') return `unchanged (the feed is at seq ${s.seq}): ${s.reads.length} file read in ${ms}`;
  const how = s.mode === 'index' ? 'from the index' : 'from the change feed';
  return `${how}: ${s.fetched} facilities fetched, ${s.withdrawn} withdrawn, feed at seq ${s.seq}; ${s.reads.length} files read in ${ms}`;
}

async function main(): Promise<void> {
  const s = settingsOf(process.env);
  const out = (text: string) => process.stdout.write(`${text}\n`);
  const follow = () => followOnce({ base: s.base, keys: s.keys, dir: s.mirror });
  out(`Following ${shown(s.base)} (keys ${shown(s.keys)}) into ${shown(s.mirror)}`);
  out(`  first run:  ${runLine(await follow())}`);
  // A comparison site polls: while nothing was published the feed's head has not moved, and one read says so.
  out(`  again:      ${runLine(await follow())}`);
  const mirrored = readMirror(s.mirror);
  out('');
  out(facilityLines(mirrored));
  out('');
  out(formatTable(rowsOf(mirrored.snapshots, Date.now())));
  out('');
  out(
    'FIRST 3 MONTHS: due at move-in (first month, deposit, fees, required protection), then months 2 and 3; * a promotion.',
  );
}

try {
  await main();
} catch (err) {
  if (!(err instanceof CompareError) && !(err instanceof ListingsError)) throw err;
  const hint =
    err instanceof ListingsError && err.code === 'follow_refused' ? ' (nothing was applied to the mirror)' : '';
  console.error(`demo:compare: ${err.message}${hint}`);
  process.exitCode = 1;
}
