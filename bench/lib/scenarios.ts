// The API bench's scenarios, and one scenario measured: ours against a ceiling that replays our answer (and the peer,
// for the scenarios that have one), taking turns on the pinned core, rounds in alternating order.
import { listingIdIn } from './data.ts';
import type { BenchRequest, Generator, Load } from './load.ts';
import { measure, type Round } from './measure.ts';
import { median, medianInterval, ratio, sideOf, table, type Side } from './report.ts';
import { capture, differences, type CapturedAnswer } from './capture.ts';
import type { Ceiling, Replayed } from './ceilings.ts';
import type { ServerProcess } from './servers.ts';

export interface Scenario {
  name: string;
  request: BenchRequest;
  /** The server it runs against (ours; ours with the request log on; ours with the failed-auth limit lifted), or how
   * to start it: a server of ours starts right before its first scenario, as its ceiling does. */
  ours: ServerProcess | (() => Promise<ServerProcess>);
  /** Answers outside 2xx/3xx are the point of this scenario. */
  errorsExpected?: boolean;
  /** Requests are sent until the answer has this status, so that the captured answer is the steady state: a client
   * hammering with wrong keys from one address gets 401 for the first 30 (the failed-auth burst), then the limiter's 429. */
  primeUntil?: number;
  /** Also measured against the Fastify peer (which answers the same request its own way). */
  peer?: boolean;
}

export interface Entry {
  status: number;
  bytes: number;
  ours: Side;
  ceiling: Side;
  ratio_rps: number;
  ratio_p99: number;
  ratio_cpu: number;
  /** The 95 % interval of ratio_rps, from the spread of the per-round ratios of every process pair. */
  ratio_rps_interval: [number, number];
  /** ratio_rps within each fresh pair of processes (ours and its ceiling), in the order they ran. */
  ratio_rps_per_process: number[];
  peer?: Side;
  ratio_rps_vs_peer?: number;
}

/** One scenario's rounds against one set of processes: the answer captured, then each side's rounds. */
export interface Measured {
  answer: CapturedAnswer;
  ours: Round[];
  ceiling: Round[];
  peer: Round[];
}

export async function scenariosFor(
  key: string,
  ours: ServerProcess,
  oursLogged: () => Promise<ServerProcess>,
  oursOpenAuth: () => Promise<ServerProcess>,
  oursNoHold: () => Promise<ServerProcess>,
): Promise<Scenario[]> {
  const list = { path: '/external/listings', headers: { 'x-api-key': key } };
  const etag = (await capture(ours.url + list.path, list.headers)).headers.find(
    (_, i, h) => h[i - 1]?.toLowerCase() === 'etag',
  )!;
  const unknownKey = `svc_live_${'x'.repeat(32)}`;
  const unknown = { path: list.path, headers: { 'x-api-key': unknownKey } };
  return [
    { name: 'list 200', request: list, ours, peer: true },
    {
      name: 'list 200, br',
      request: { path: list.path, headers: { 'x-api-key': key, 'accept-encoding': 'br, gzip' } },
      ours,
    },
    {
      name: 'detail 200',
      request: { path: `/external/listings/${listingIdIn(0, 7)}`, headers: { 'x-api-key': key } },
      ours,
      peer: true,
    },
    { name: 'list 304', request: { path: list.path, headers: { 'x-api-key': key, 'if-none-match': etag } }, ours },
    { name: 'unknown key 401', request: unknown, ours: oursOpenAuth, errorsExpected: true, primeUntil: 401 },
    // Against ours with refusals answered at once: by default a client that keeps sending while refused waits a second.
    { name: 'unknown key (429 after 30)', request: unknown, ours: oursNoHold, errorsExpected: true, primeUntil: 429 },
    { name: 'list 200, request log on', request: list, ours: oursLogged },
  ];
}

export interface Run {
  generator: string;
  run: Generator;
  load: Load;
  warmUp: Load;
  rounds: number;
  /** The first round's number (the order alternates with it), so that rounds spread over process sets alternate too. */
  firstRound?: number;
  peer: ServerProcess;
  /** The ceiling paired with a server of ours (started with that server's first scenario), told which answer to
   * replay before each scenario: it carries the same history of traffic as that server. */
  ceilingFor: (ours: ServerProcess, first: Replayed) => Promise<Ceiling>;
  /** Registers a started ceiling, so that an unexpected exit is reported. */
  track: (s: ServerProcess) => ServerProcess;
  /** Where what broke is written (a ceiling that answers otherwise, unexpected errors). */
  broken: string[];
}

/** One scenario on one set of processes: capture our answer, have the ceiling replay it, check it answers the same,
 * then the rounds. */
export async function measureScenario(s: Scenario, r: Run): Promise<Measured> {
  const ours = typeof s.ours === 'function' ? await s.ours() : s.ours;
  let answer = await capture(ours.url + s.request.path, s.request.headers);
  for (let i = 0; s.primeUntil !== undefined && answer.status !== s.primeUntil && i < 200; i++)
    answer = await capture(ours.url + s.request.path, s.request.headers);
  if (s.primeUntil !== undefined && answer.status !== s.primeUntil)
    r.broken.push(`${s.name}: never answered ${s.primeUntil}`);
  const replayed = { request: s.request, answer };
  const ceiling = await r.ceilingFor(ours, replayed);
  await ceiling.serve([replayed]);
  const diff = differences(answer, await capture(ceiling.url + s.request.path, s.request.headers));
  if (diff.length > 0) r.broken.push(`${s.name}: the ceiling does not answer what ours does: ${diff.join('; ')}`);
  const servers: ['ours' | 'ceiling' | 'peer', ServerProcess][] = [
    ['ours', ours],
    ['ceiling', ceiling],
  ];
  if (s.peer) servers.push(['peer', r.peer]);
  // Every side warms up on this scenario's request: the JIT has seen it before the first measured round.
  for (const [, server] of servers) await r.run(server.url, [s.request], r.warmUp);
  const sides = { ours: [] as Round[], ceiling: [] as Round[], peer: [] as Round[] };
  for (let i = 0; i < r.rounds; i++) {
    // Alternating order: neither side always runs right after the other has warmed the machine.
    for (const [side, server] of (i + (r.firstRound ?? 0)) % 2 === 0 ? servers : [...servers].reverse()) {
      const round = await measure(r.run, server, [s.request], r.load);
      if (!s.errorsExpected && round.unexpected > 0)
        r.broken.push(`${s.name} (${server.name}, ${r.generator}): ${round.unexpected} unexpected errors`);
      // Every answer of a 200 scenario is a 200 (autocannon counts them; wrk counts answers outside 2xx/3xx).
      if (answer.status === 200 && round.ok2xx !== undefined && round.ok2xx < round.requests)
        r.broken.push(
          `${s.name} (${server.name}, ${r.generator}): ${round.requests - round.ok2xx} answers were not 2xx`,
        );
      sides[side].push(round);
    }
  }
  return { answer, ...sides };
}

/**
 * A scenario's entry from its rounds on every set of processes. Each pair of processes (ours and its ceiling) runs at
 * its own speed, a few percent apart from the next pair's on the same code (where the JIT placed and inlined what):
 * rounds pooled over several fresh pairs measure the code, rounds of one pair measure also that pair's luck.
 */
export function entryOf(s: Scenario, parts: Measured[]): Entry {
  const all = (side: 'ours' | 'ceiling' | 'peer') => parts.flatMap((p) => p[side]);
  const [ours, ceiling] = [all('ours'), all('ceiling')];
  const rps = (x: Round) => x.rps;
  const entry: Entry = {
    status: parts[0]!.answer.status,
    bytes: Buffer.from(parts[0]!.answer.body, 'base64').length,
    ours: sideOf(ours),
    ceiling: sideOf(ceiling),
    ratio_rps: pairedRatio(ours, ceiling, rps),
    ratio_p99: pairedRatio(ours, ceiling, (x) => x.p99),
    ratio_cpu: pairedRatio(ours, ceiling, (x) => x.cpu_us_per_req),
    ratio_rps_interval: pairedInterval(ours, ceiling, rps),
    ratio_rps_per_process: parts.map((p) => pairedRatio(p.ours, p.ceiling, rps)),
  };
  if (s.peer) {
    entry.peer = sideOf(all('peer'));
    entry.ratio_rps_vs_peer = pairedRatio(ours, all('peer'), rps);
  }
  return entry;
}

/**
 * The median of the per-round ratios. Round i of each side ran back to back on the same core, so a slow spell of the
 * machine (a neighbour on the host, a frequency change) lands on both sides of one ratio rather than on one side's
 * median: steadier than the ratio of the two medians, which pairs figures measured a minute apart.
 */
export function pairedRatio(a: Round[], b: Round[], figure: (r: Round) => number): number {
  return ratio(median(a.map((x, i) => figure(x) / figure(b[i]!))), 1);
}

/** The 95 % interval of pairedRatio's median: how far this machine's noise leaves the ratio uncertain. */
export function pairedInterval(a: Round[], b: Round[], figure: (r: Round) => number): [number, number] {
  const [lo, hi] = medianInterval(a.map((x, i) => figure(x) / figure(b[i]!)));
  return [ratio(lo, 1), ratio(hi, 1)];
}

/** The two tables of one generator's run: ours against the ceiling, and against the peer. */
export function scenarioTables(entries: Record<string, Entry>): string {
  const rows = Object.entries(entries).map(([name, e]) => [
    name,
    e.status,
    e.bytes,
    e.ours.rps,
    e.ceiling.rps,
    e.ratio_rps,
    e.ratio_rps_interval.join('-'),
    e.ours.p50_ms,
    e.ceiling.p50_ms,
    e.ours.p99_ms,
    e.ceiling.p99_ms,
    e.ratio_p99,
    e.ours.cpu_us_per_req,
    e.ceiling.cpu_us_per_req,
    e.ratio_cpu,
    Math.round(e.ours.core_busy * 100),
    Math.round(e.ceiling.core_busy * 100),
    e.ours.rss_mb,
    e.ceiling.rss_mb,
    e.ratio_rps_per_process.join(' '),
  ]);
  const peerRows = Object.entries(entries).flatMap(([name, e]) =>
    e.peer
      ? [
          [
            name,
            e.ours.rps,
            e.peer.rps,
            e.ratio_rps_vs_peer!,
            e.ours.p99_ms,
            e.peer.p99_ms,
            e.ours.cpu_us_per_req,
            e.peer.cpu_us_per_req,
          ],
        ]
      : [],
  );
  const head = ['scenario', 'status', 'bytes', 'ours req/s', 'ceiling req/s', 'ratio', 'ratio 95 %', 'ours p50 ms'];
  const tail = [
    'ceil p50 ms',
    'ours p99 ms',
    'ceil p99 ms',
    'p99 ratio',
    'ours CPU µs/req',
    'ceil CPU µs/req',
    'CPU ratio',
  ];
  return (
    table(
      [...head, ...tail, 'ours core %', 'ceil core %', 'ours RSS MB', 'ceil RSS MB', 'ratio per process pair'],
      rows,
    ) +
    'ratios: the median of the per-round ratios (round i of each side ran back to back), pooled over fresh process pairs;\n' +
    '95 %: the interval of that median; per process pair: the ratio within each pair; req/s, ms and µs: medians;\n' +
    '\nagainst the peer (Fastify 5 + better-sqlite3, querying and serialising per request):\n' +
    table(
      [
        'scenario',
        'ours req/s',
        'peer req/s',
        'ours/peer',
        'ours p99 ms',
        'peer p99 ms',
        'ours CPU µs/req',
        'peer CPU µs/req',
      ],
      peerRows,
    )
  );
}
