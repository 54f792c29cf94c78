// `npm run docs:figures [-- --check]`: the latest figures in docs/performance.md, made from bench/*.json, never by hand.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { at, counts, having, kib, list, num, obj, pct, table, two, words, type Json } from './perf-figures-format.ts';

export const START = '<!-- figures:start -->';
export const END = '<!-- figures:end -->';
const REPO = fileURLToPath(new URL('..', import.meta.url));
export const DOC = join(REPO, 'docs', 'performance.md');

/** The benches' result files; one a bench never wrote is missing. */
export interface BenchFiles {
  api?: Json;
  publish?: Json;
  widget?: Json;
}

export function readBenchFiles(dir = join(REPO, 'bench')): BenchFiles {
  const read = (name: string) =>
    existsSync(join(dir, name)) ? (JSON.parse(readFileSync(join(dir, name), 'utf8')) as Json) : undefined;
  return { api: read('results.json'), publish: read('publish-results.json'), widget: read('widget-results.json') };
}

/** The doc with the text between the markers replaced by `figures`. */
export function withFigures(doc: string, figures: string): string {
  const start = doc.indexOf(START);
  const end = doc.indexOf(END);
  if (start < 0 || end < start) throw new Error(`no ${START} ... ${END} markers`);
  return `${doc.slice(0, start + START.length)}\n\n${figures.trim()}\n\n${doc.slice(end)}`;
}

export function renderFigures(files: BenchFiles): string {
  const parts = [
    files.api && api(files.api),
    files.publish && publish(files.publish),
    files.widget && widget(files.widget),
  ];
  return parts.filter(Boolean).join('\n\n');
}

/** The columns of one server's side. */
const SIDE: [string, (s: Json) => string][] = [
  ['req/s', (s) => num(s.rps)],
  ['p50 / p99 ms', (s) => two(s.p50_ms, s.p99_ms)],
  ['CPU µs/req', (s) => num(s.cpu_us_per_req)],
  ['Core busy', (s) => pct(s.core_busy)],
  ['RSS MB', (s) => num(s.rss_mb)],
];
const sides = (label: string, rows: [string, Json][]) => table(label, SIDE, rows);

/** An entry's `ratio_*` figures, in a sentence. */
const ratios = (e: Json) =>
  Object.entries(e)
    .filter(([k, v]) => k.startsWith('ratio_') && typeof v === 'number')
    .map(([k, v]) => `${words(k.slice('ratio_'.length)).replace('rps', 'req/s').replace('cpu', 'CPU')} ${num(v)}`)
    .join(', ') || 'none';

function api(r: Json): string {
  const [m, s] = [obj(r.machine), obj(r.settings)];
  const database =
    s.facilities === undefined
      ? ''
      : `Database of ${num(s.facilities)} facilities × ${num(s.listings_per_facility)} listings, `;
  const head =
    `Command: \`${String(r.command)}\`, finished ${at(r.date)} after ${num(r.seconds)} s, load average ` +
    `${num(list(m.loadavg_at_start)[0])} at the start and ${num(list(m.loadavg_at_end)[0])} at the end. Machine: ` +
    `${String(m.cpu)}, ${num(m.cores)} cores, ${num(m.memory_gb)} GB RAM, ${String(m.platform)}, Node ${String(m.node)}. ` +
    `${database}${num(s.connections)} connections${s.pipelining === undefined ? '' : `, pipelining ${num(s.pipelining)}`}, ${num(s.rounds)} rounds of ` +
    `${num(s.duration)} s per side${s.processes === undefined ? '' : ` (the one-key scenarios' spread over ${num(s.processes)} fresh sets of processes)`}${list(s.node_flags).length > 0 ? `, every server run as \`node ${list(s.node_flags).join(' ')}\`` : ''}; ${String(s.pinned)}.` +
    (s.quick ? ' A quick run (`--quick`): figures not to quote.' : '');
  const parts = ['### API', head];
  if (r.field_mix) parts.push(fieldMix(obj(r.field_mix)));
  if (list(r.abuse).length > 0) parts.push(abuse(list(r.abuse).map(obj)));
  // One generator (wrk): its entries by scenario; a file keyed by generator first is read by its first.
  const scenarios = obj(r.scenarios);
  const [generator, entries] = Object.values(scenarios).some((e) => obj(e).ours)
    ? ['wrk', scenarios]
    : (Object.entries(scenarios)[0] ?? []);
  if (generator) parts.push(oneKey(generator, obj(entries)));
  return [...parts, ...extras(r)].join('\n\n');
}

/** The primary generator's scenarios: ours against the ceiling, then against the peer where the peer ran. */
function oneKey(generator: string, entries: Json): string {
  const rows = Object.entries(entries).map(([name, e]) => [name, obj(e)] as [string, Json]);
  const both =
    (other: string, key: string, f = num) =>
    (e: Json) =>
      two(obj(e.ours)[key], obj(e[other])[key], f);
  const ceiling = table(
    'Scenario',
    [
      ['Status', (e) => num(e.status)],
      ['Bytes', (e) => num(e.bytes)],
      ['Ours req/s', (e) => num(obj(e.ours).rps)],
      ['Ceiling req/s', (e) => num(obj(e.ceiling).rps)],
      ['Ratio (paired)', (e) => num(e.ratio_rps)],
      ['Ours p50 / p99 ms', (e) => two(obj(e.ours).p50_ms, obj(e.ours).p99_ms)],
      ['p99 ratio', (e) => num(e.ratio_p99)],
      ['CPU µs/req, ours / ceiling', both('ceiling', 'cpu_us_per_req')],
      ['RSS MB, ours / ceiling', both('ceiling', 'rss_mb')],
    ],
    rows,
  );
  const withPeer = rows.filter(([, e]) => e.peer);
  const peer = table(
    'Scenario',
    [
      ['Ours req/s', (e) => num(obj(e.ours).rps)],
      ['Peer req/s', (e) => num(obj(e.peer).rps)],
      ['Ratio (paired)', (e) => num(e.ratio_rps_vs_peer)],
      ['Ours p50 / p99 ms', (e) => two(obj(e.ours).p50_ms, obj(e.ours).p99_ms)],
      ['Peer p50 / p99 ms', (e) => two(obj(e.peer).p50_ms, obj(e.peer).p99_ms)],
      ['CPU µs/req, ours / peer', both('peer', 'cpu_us_per_req')],
      ['RSS MB, ours / peer', both('peer', 'rss_mb')],
    ],
    withPeer,
  );
  return (
    `#### One key, one request: ${generator}\n\n${ceiling}` +
    (withPeer.length === 0 ? '' : `\n\n${generator}, against the peer (Fastify 5 + better-sqlite3):\n\n${peer}`)
  );
}

function fieldMix(f: Json): string {
  const about = [
    typeof f.database === 'string' ? `Database: ${f.database}` : '',
    f.keys
      ? `keys: ${Object.entries(obj(f.keys))
          .map(([k, v]) => `${num(v)} ${words(k)}`)
          .join(', ')}`
      : '',
    f.rotation === undefined ? '' : `${num(f.rotation)} requests rotating, ${num(f.distinct)} distinct`,
  ].filter(Boolean);
  // Each kind with its share and statuses; the rest of what the bench records per kind stays in the results file.
  const kinds = Object.entries(obj(f.kinds)).map(
    ([k, v]) => `${k} ${num(obj(v).share_pct)} % (${counts(obj(v).statuses) || '–'})`,
  );
  const changed = counts(f.changed_after);
  const [interval, pairs] = [list(f.ratio_rps_interval), list(obj(f.ours).rounds).length];
  return [
    '#### Field mix',
    about.length > 0 ? `${about.join('; ')}.` : '',
    kinds.length > 0 ? `Requests by kind: ${kinds.join('; ')}.` : '',
    sides('Server', having(f, 'rps')),
    `Ours over the ceiling${f.peer ? ' (over the peer where it says so)' : ''}, paired: ${ratios(f)}.` +
      (interval.length === 2
        ? ` The req/s ratio's 95 % interval: ${num(interval[0])}-${num(interval[1])}${pairs > 0 ? ` (${pairs} pairs of rounds)` : ''}.`
        : '') +
      (changed ? ` Answers that changed between capture and the end: ${changed}.` : ''),
  ]
    .filter(Boolean)
    .join('\n\n');
}

function abuse(entries: Json[]): string {
  const rss = (e: Json) => `${num(obj(e.rss).before_mb)} → ${num(obj(e.rss).peak_mb)}`;
  const rows = entries.map((e) => [`${String(e.target)}, ${String(e.pattern)}`, e] as [string, Json]);
  return [
    '#### Abuse',
    `The keyed partner's p99 with each pattern of abuse switched on and off by turns (windows of a second), over its p99 in the windows without, and ours' RSS through the pattern:`,
    table(
      'Abused key, pattern',
      [
        ['p99 alone / with, ms', (e) => two(e.p99_alone_ms, e.p99_with_ms)],
        ['Ratio', (e) => num(e.ratio_p99)],
        ['Ours RSS MB, before → peak', rss],
      ],
      rows,
    ),
  ].join('\n\n');
}

/** Scale, snapshot export and the freshness check, a line each, then what the run flagged. */
function extras(r: Json): string[] {
  const lines: string[] = [];
  const scale = obj(r.scale);
  if (r.scale) {
    const [small, large] = list(scale.facilities).map(num);
    const side = (s: unknown) => `${num(obj(s).rps)} req/s, p99 ${num(obj(s).p99_ms)} ms`;
    lines.push(
      `Scale: ${small} facilities ${side(scale.small)}; ${large} facilities ${side(scale.large)}; req/s of the larger over the smaller ${num(scale.ratio_rps)}.`,
    );
  }
  const ex = obj(r.snapshot_export);
  if (r.snapshot_export)
    lines.push(
      `Signed snapshot export: ${num(ex.facilities)} facilities, ${num(ex.listings)} listings, ${num(ex.megabytes)} ` +
        `MB in ${num(ex.export_seconds)} s (${num(ex.facilities_per_s)} facilities/s); ${num(ex.wall_seconds)} s with start-up.`,
    );
  if (r.freshness) lines.push(`One freshness check: ${num(obj(r.freshness).pragma_data_version_us)} µs.`);
  const flagged = [...list(r.sanity), ...list(r.broken)].map(String);
  return [
    ...(lines.length > 0 ? [`#### Scale, export\n\n${lines.map((l) => `- ${l}`).join('\n')}`] : []),
    flagged.length === 0 ? 'The run flagged nothing.' : `The run flagged (not to quote): ${flagged.join('; ')}.`,
  ];
}

function publish(p: Json): string {
  const d = obj(p.data);
  const watch = obj(p.watch_commit_to_pointer_ms);
  const rows: [string, Json][] = [
    ['First publish', obj(p.first_publish)],
    ['The same PUTs straight through the SDK', obj(p.baseline_sdk_puts)],
    ['Re-publish, nothing changed', obj(p.unchanged_republish)],
    ['Re-publish, one facility changed', obj(p.one_changed)],
  ];
  const measures = table<Json>(
    'Measure',
    [
      ['Seconds', (x) => num(x.seconds)],
      ['The publish itself, s', (x) => num(x.publish_seconds)],
      ['Objects written', (x) => num(x.data_puts ?? x.objects)],
    ],
    rows,
  );
  return (
    `### Publishing\n\nCommand: \`${String(p.command ?? 'npm run bench:publish')}\`, run ${at(p.date)}; ${num(d.facilities)} ` +
    `facilities × ${num(d.listings_per_facility)} listings, concurrency ${num(d.concurrency)}.\n\n${measures}\n\n` +
    `The SDK's PUTs over ours: ${num(p.ratio_baseline_over_ours)}. \`--watch\`, from an import's commit to the pointer ` +
    `updated: median ${num(watch.median)} ms, worst ${num(watch.worst)} ms.` +
    follow(obj(p.follow_from_zero), obj(p.follow_after_one_change))
  );
}

/** The follower's two runs, when the results have them. */
function follow(zero: Json, one: Json): string {
  if (zero.seconds === undefined) return '';
  const run = (x: Json) =>
    `${num(x.seconds)} s, peak RSS ${num(x.peak_rss_mb)} MB, ${num(x.files_read)} files read (${num(x.fetched)} facilities)`;
  return `\n\n\`snapshot follow\` of that target from zero: ${run(zero)}; after one facility changed: ${run(one)}.`;
}

function widget(w: Json): string {
  const ms = (k: string) => `${num(obj(w[k]).median)} ms (${num(obj(w[k]).min)}–${num(obj(w[k]).max)})`;
  const b = obj(w.bundle);
  return (
    `### Widget\n\nCommand: \`${String(w.command ?? 'npm run bench:widget')}\`, run ${at(w.date)}; ${num(w.listings)} ` +
    `listings, medians (and ranges) of ${num(w.runs)} page loads, from the list data's arrival:\n\n` +
    `- load event (data parsed and checked): ${ms('data_to_load_event_ms')}\n- every card in the DOM: ${ms('data_to_dom_ms')}\n` +
    `- next frame painted: ${ms('data_to_painted_ms')}\n\n` +
    `Bundle: ${kib(b.bytes)}, ${kib(b.gzip_bytes)} gzip (budget ${kib(b.gzip_budget_bytes)}).`
  );
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const doc = readFileSync(DOC, 'utf8');
  const next = withFigures(doc, renderFigures(readBenchFiles()));
  if (!process.argv.includes('--check')) writeFileSync(DOC, next);
  else if (next !== doc) {
    console.error('docs/performance.md: its figures are not what bench/*.json makes: run npm run docs:figures');
    process.exitCode = 1;
  }
}
