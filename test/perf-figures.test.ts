// docs/performance.md's latest figures are what tools/perf-figures.ts makes from the committed bench/*.json, and the
// generator renders whatever scenarios a results file holds.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DOC, END, readBenchFiles, renderFigures, START, withFigures } from '../tools/perf-figures.ts';

const side = (rps: number, cpu: number) => ({
  rps,
  p50_ms: 0.5,
  p99_ms: 1.2,
  cpu_us_per_req: cpu,
  core_busy: 0.97,
  rss_mb: 99.5,
});
const entry = (peer: boolean) => ({
  status: 200,
  bytes: 845,
  ours: side(70_000, 13),
  ceiling: side(75_000, 12),
  ratio_rps: 0.93,
  ratio_p99: 1.02,
  ratio_cpu: 1.08,
  ...(peer ? { peer: side(15_000, 66), ratio_rps_vs_peer: 5.1 } : {}),
});
/** A results file of the shape bench/api.ts writes: the field mix and abuse first, then the one-key scenarios. */
const results = {
  date: '2026-12-01T10:20:30.000Z',
  command: 'npm run bench',
  machine: {
    cpu: 'AMD EPYC',
    cores: 2,
    memory_gb: 24,
    node: 'v20.20.2',
    platform: 'linux x64',
    loadavg_at_start: [0.5],
    loadavg_at_end: [0.9],
  },
  settings: {
    connections: 50,
    pipelining: 1,
    duration: 2,
    rounds: 12,
    quick: false,
    pinned: 'pinned',
    facilities: 1000,
    listings_per_facility: 50,
    node_flags: ['--no-memory-reducer'],
  },
  field_mix: {
    database: '1,001 facilities of 20-10,000 listings',
    keys: { live: 200, revoked: 20, keyed_facilities: 50 },
    rotation: 50_000,
    distinct: 20_000,
    kinds: {
      list: { share_pct: 30, requests: 15_000, statuses: { 200: 15_000 } },
      'filtered list': { share_pct: 10, requests: 5_000, statuses: { 200: 4_990, 429: 10 } },
    },
    ours: side(40_000, 24),
    ceiling: side(60_000, 15),
    peer: side(3_000, 300),
    ratio_rps: 0.7,
    ratio_rps_interval: [0.66, 0.74],
    ratio_cpu: 1.6,
    ratio_rps_vs_peer: 13.3,
    changed_after: {},
  },
  abuse: [
    {
      target: 'key of a 10,000-listing facility',
      pattern: 'rotate',
      p99_alone_ms: 3.3,
      p99_with_ms: 5.2,
      ratio_p99: 1.58,
      rss: { before_mb: 250, peak_mb: 310, after_mb: 300, peak_since: 'pattern' },
    },
  ],
  scenarios: { 'detail 200': entry(true), 'filtered list 200': entry(false), 'list 304': entry(false) },
  scale: {
    facilities: [10, 10_000],
    small: side(70_000, 13),
    large: side(68_000, 13.5),
    ratio_rps: 0.97,
  },
  sanity: ['list 304: ours at 1.02x a server that only replays bytes'],
  broken: [],
  seconds: 1200,
};

describe('docs/performance.md', () => {
  it('holds the figures bench/*.json make (after a bench: npm run docs:figures)', () => {
    const doc = readFileSync(DOC, 'utf8');
    expect(doc).toContain(START);
    expect(doc).toBe(withFigures(doc, renderFigures(readBenchFiles())));
  });
});

describe('the figures generator', () => {
  const text = renderFigures({ api: results });

  it('says the command and the date of the run', () => {
    expect(text).toContain('`npm run bench`, finished 2026-12-01 10:20 UTC after 1,200 s');
  });

  it('renders the field mix and abuse first, then the one-key table, then scale', () => {
    const order = ['#### Field mix', '#### Abuse', '#### One key, one request: wrk', '#### Scale, export'];
    const at = order.map((heading) => text.indexOf(heading));
    expect(at.every((i) => i >= 0)).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
    expect(text).toMatch(/^\| filtered list 200 \| 200 \| 845 \| 70,000 \| 75,000 \| 0\.93 \| 0\.5 \/ 1\.2 \|/m);
    expect(text).toMatch(/^\| list 304 \| 200 \|/m);
    expect(text).toContain('Requests by kind: list 30 % (200 ×15,000); filtered list 10 % (200 ×4,990, 429 ×10).');
    expect(text).toMatch(/^\| key of a 10,000-listing facility, rotate \| 3\.3 \/ 5\.2 \| 1\.58 \| 250 → 310 \|$/m);
    expect(text).toContain('10 facilities 70,000 req/s, p99 1.2 ms; 10,000 facilities 68,000 req/s');
    expect(text).toContain('list 304: ours at 1.02x');
    expect(text).toContain("The req/s ratio's 95 % interval: 0.66-0.74.");
  });

  it('has a peer table of the scenarios that met the peer, and rounds figures to thousandths', () => {
    expect(text).toContain('wrk, against the peer');
    expect(text).toMatch(/^\| detail 200 \| 70,000 \| 15,000 \| 5\.1 \|/m);
    expect(text).not.toMatch(/^\| filtered list 200 \| 70,000 \| 15,000 \|/m);
    const rounded = renderFigures({ api: { ...results, freshness: { pragma_data_version_us: 119.55000000000001 } } });
    expect(rounded).toContain('One freshness check: 119.55 µs.');
  });

  it('leaves out what a run did not measure', () => {
    const bare = renderFigures({
      api: { date: results.date, command: 'npm run bench -- --quick', settings: { quick: true } },
    });
    expect(bare).toContain('A quick run');
    expect(bare).not.toMatch(/#### (Field mix|Abuse|One key|Scale)/);
    expect(renderFigures({})).toBe('');
  });

  it('replaces only the text between the markers, and refuses a doc without them', () => {
    const doc = `intro\n${START}\nold\n${END}\nafter\n`;
    expect(withFigures(doc, 'new')).toBe(`intro\n${START}\n\nnew\n\n${END}\nafter\n`);
    expect(() => withFigures('no markers', 'new')).toThrow(/markers/);
  });
});
