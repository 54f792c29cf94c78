// The field mix measured: ours' answer to every distinct request of the rotation captured first (with its time, the
// first time ours saw it), then ours, a ceiling replaying those answers and the Fastify peer take turns under the same
// rotation, each round starting at another place in it; afterwards every distinct request is asked again, to check
// that ours still answers as it did when captured.
import { Agent } from 'node:http';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describeDb } from './data.ts';
import { answerKeyOf, KINDS, type FieldSettings, type FieldWorld, type Kind, type MixRequest } from './field-mix.ts';
import type { BenchRequest, Generator, Load } from './load.ts';
import { measure, type Round } from './measure.ts';
import { median, sideOf, table, type Side } from './report.ts';
import { pairedRatio } from './scenarios.ts';
import { capture, differences, type CapturedAnswer } from './capture.ts';
import { startCeilingMix } from './ceilings.ts';
import type { ServerProcess } from './servers.ts';

export interface FieldRun {
  generator: string;
  run: Generator;
  load: Load;
  warmUp: Load;
  rounds: number;
  dir: string;
  /** Registers a started server, so that an unexpected exit is reported. */
  track: <T extends ServerProcess>(s: T) => T;
  /** Where what broke is written (5xx answers, a ceiling that answers otherwise). */
  broken: string[];
  /** Where figures not to quote are explained. */
  sanity: string[];
  out: (text: string) => void;
}

interface Captured {
  request: MixRequest;
  answer: CapturedAnswer;
  ms: number;
}

/** What each kind of request got at capture: counts, statuses, ours' time on first sight, bytes. */
interface KindFigures {
  share_pct: number;
  requests: number;
  distinct: number;
  /** Requests of the rotation to the large facility. */
  large: number;
  statuses: Record<string, number>;
  first_sight_p50_ms: number;
  first_sight_p99_ms: number;
  first_sight_max_ms: number;
  mean_bytes: number;
}

export interface FieldEntry {
  settings: FieldSettings;
  database: string;
  keys: { live: number; revoked: number; keyed_facilities: number };
  rotation: number;
  distinct: number;
  capture_seconds: number;
  kinds: Record<string, KindFigures>;
  ours: Side;
  ceiling: Side;
  peer: Side;
  ratio_rps: number;
  ratio_p99: number;
  ratio_cpu: number;
  ratio_rps_vs_peer: number;
  /** Per side and round: answers outside 2xx/3xx against how many the captured answers predict. */
  error_answers: { side: string; round: number; observed: number; expected: number }[];
  /** Statuses that changed between capture and the check after the rounds ("200 -> 429": count). */
  changed_after: Record<string, number>;
}

/** Headers that choose ours' answer (the ceiling keys its answers by them); the rest (X-Forwarded-For) do not. */
const CHOOSING = ['x-api-key', 'if-none-match', 'accept-encoding', 'origin'];

export async function measureFieldMix(
  world: FieldWorld,
  settings: FieldSettings,
  rotation: MixRequest[],
  ours: ServerProcess,
  peer: ServerProcess,
  r: FieldRun,
): Promise<FieldEntry> {
  const agent = new Agent({ keepAlive: true, maxSockets: 4 });
  const started = performance.now();
  // 304s revalidate with the ETag ours gave the same request without If-None-Match.
  const bases = new Map<string, BenchRequest>();
  for (const q of rotation) if (q.revalidates) bases.set(answerKeyOf(q.revalidates), q.revalidates);
  const etags = new Map<string, string>();
  for (const [key, base] of bases) {
    const a = await capture(ours.url + base.path, base.headers, agent);
    const etag = headerOf(a, 'etag');
    if (etag === undefined) r.broken.push(`field mix: ours answered ${a.status} without an ETag to ${base.path}`);
    else etags.set(key, etag);
  }
  for (const q of rotation) {
    const etag = q.revalidates && etags.get(answerKeyOf(q.revalidates));
    if (etag !== undefined) q.headers['if-none-match'] = etag;
  }

  // Every distinct request once, one at a time: its answer for the ceiling, and ours' time on first sight.
  const distinct = new Map<string, Captured>();
  for (const q of rotation) {
    const key = answerKeyOf(q);
    if (distinct.has(key)) continue;
    const t = performance.now();
    const answer = await capture(ours.url + q.path, q.headers, agent);
    distinct.set(key, { request: q, answer, ms: performance.now() - t });
  }
  const captureSeconds = Math.round((performance.now() - started) / 100) / 10;
  const fivexx = [...distinct.values()].filter((c) => c.answer.status >= 500);
  if (fivexx.length > 0)
    r.broken.push(
      `field mix: ours answered ${fivexx.length} distinct requests with 5xx at capture, e.g. ${fivexx
        .slice(0, 3)
        .map((c) => `${c.answer.status} to ${c.request.kind} ${c.request.path}`)
        .join(', ')}`,
    );
  const statuses = rotation.map((q) => distinct.get(answerKeyOf(q))!.answer.status);
  const kinds = kindFigures(rotation, distinct);
  unexpectedStatuses(kinds, r.sanity);

  const file = join(r.dir, 'ceiling-mix.json');
  writeCeilingFile(file, distinct.values());
  const ceiling = r.track(await startCeilingMix(file));
  // The ceiling must answer as ours did: checked on a sample of the distinct requests.
  const sample = [...distinct.values()].filter((_, i) => i % Math.max(1, Math.floor(distinct.size / 300)) === 0);
  for (const c of sample) {
    const diff = differences(c.answer, await capture(ceiling.url + c.request.path, c.request.headers, agent));
    if (diff.length > 0) {
      r.broken.push(`field mix: the ceiling does not answer ${c.request.path} as ours did: ${diff.join('; ')}`);
      break;
    }
  }

  const servers: ['ours' | 'ceiling' | 'peer', ServerProcess][] = [
    ['ours', ours],
    ['ceiling', ceiling],
    ['peer', peer],
  ];
  for (const [, server] of servers) await r.run(server.url, rotation, r.warmUp);
  const sides = { ours: [] as Round[], ceiling: [] as Round[], peer: [] as Round[] };
  const errorAnswers: FieldEntry['error_answers'] = [];
  const expected = errorsFrom(statuses);
  for (let i = 0; i < r.rounds; i++) {
    // Each round starts elsewhere in the rotation, the same place for every side.
    const start = Math.floor((i * rotation.length) / r.rounds);
    for (const [side, server] of i % 2 === 0 ? servers : [...servers].reverse()) {
      const round = await measure(r.run, server, rotation, { ...r.load, start });
      sides[side].push(round);
      if (side === 'peer') continue; // it answers 200 where ours answers 304, and its own 4xx
      // wrk's connections share one walk through the rotation; autocannon's walk one slice each, so for it the
      // rotation's share of errors is what to expect.
      const e = {
        side,
        round: i,
        observed: round.errorAnswers,
        expected:
          r.generator === 'autocannon'
            ? Math.round((round.requests * expected(0, rotation.length)) / rotation.length)
            : expected(start, round.requests),
      };
      errorAnswers.push(e);
      if (Math.abs(e.observed - e.expected) > 2 * r.load.connections + 0.002 * round.requests)
        r.sanity.push(
          `field mix, round ${i}: ${server.name} answered ${e.observed} requests outside 2xx/3xx where ours' captured answers predict ${e.expected}: it no longer answers as captured (throttled? failing?)`,
        );
      if (round.socketErrors > 0)
        r.sanity.push(`field mix, round ${i}: ${server.name}: ${round.socketErrors} socket errors or timeouts (2 s)`);
    }
  }
  const misses = await ceiling.misses();
  if (misses > 0) r.broken.push(`field mix: the ceiling had no captured answer for ${misses} requests`);
  await ceiling.stop();

  // Ours once more on every distinct request: statuses that changed since capture mean the rounds saw other answers.
  const changed: Record<string, number> = {};
  await inParallel([...distinct.values()], 4, async (c) => {
    const now = await capture(ours.url + c.request.path, c.request.headers, agent);
    if (now.status !== c.answer.status) {
      const what = `${c.request.kind}: ${c.answer.status} -> ${now.status}`;
      changed[what] = (changed[what] ?? 0) + 1;
    }
  });
  agent.destroy();
  if (Object.keys(changed).some((what) => / -> 5\d\d$/.test(what)))
    r.broken.push(`field mix: ours answered 5xx after the rounds: ${JSON.stringify(changed)}`);
  else if (Object.keys(changed).length > 0)
    r.sanity.push(`field mix: ours answered otherwise after the rounds than at capture: ${JSON.stringify(changed)}`);

  const [o, c, p] = [sideOf(sides.ours), sideOf(sides.ceiling), sideOf(sides.peer)];
  return {
    settings,
    database: describeDb(world.db),
    keys: { live: world.keys.length, revoked: world.revoked.length, keyed_facilities: world.keyed.length },
    rotation: rotation.length,
    distinct: distinct.size,
    capture_seconds: captureSeconds,
    kinds,
    ours: o,
    ceiling: c,
    peer: p,
    ratio_rps: pairedRatio(sides.ours, sides.ceiling, (x) => x.rps),
    ratio_p99: pairedRatio(sides.ours, sides.ceiling, (x) => x.p99),
    ratio_cpu: pairedRatio(sides.ours, sides.ceiling, (x) => x.cpu_us_per_req),
    ratio_rps_vs_peer: pairedRatio(sides.ours, sides.peer, (x) => x.rps),
    error_answers: errorAnswers,
    changed_after: changed,
  };
}

function headerOf(a: CapturedAnswer, name: string): string | undefined {
  for (let i = 0; i < a.headers.length; i += 2) if (a.headers[i]!.toLowerCase() === name) return a.headers[i + 1];
  return undefined;
}

/** (start, n) -> how many of the n requests from `start` on (wrapping) were answered outside 2xx/3xx at capture. */
function errorsFrom(statuses: readonly number[]) {
  const before = [0];
  for (const s of statuses) before.push(before.at(-1)! + (s > 399 ? 1 : 0));
  const total = before.at(-1)!;
  const upTo = (i: number) => Math.floor(i / statuses.length) * total + before[i % statuses.length]!;
  return (start: number, n: number) => upTo(start + n) - upTo(start);
}

/** The ceiling's file (see bench/ceiling-mix.mjs): each distinct request with ours' answer, bodies stored once. */
function writeCeilingFile(file: string, captured: Iterable<Captured>) {
  const bodies: string[] = [];
  const bodyIndex = new Map<string, number>();
  const answers = [];
  for (const { request, answer } of captured) {
    let body = bodyIndex.get(answer.body);
    if (body === undefined) bodyIndex.set(answer.body, (body = bodies.push(answer.body) - 1));
    const headers = Object.fromEntries(
      CHOOSING.flatMap((h) => (h in request.headers ? [[h, request.headers[h]]] : [])),
    );
    answers.push({
      request: { method: 'GET', url: request.path, headers },
      status: answer.status,
      headers: answer.headers,
      body,
    });
  }
  writeFileSync(file, JSON.stringify({ bodies, answers }));
}

function kindFigures(rotation: readonly MixRequest[], distinct: Map<string, Captured>): Record<string, KindFigures> {
  const out: Record<string, KindFigures> = {};
  for (const kind of KINDS) {
    const of = rotation.filter((q) => q.kind === kind);
    if (of.length === 0) continue;
    const captured = [...distinct.values()].filter((c) => c.request.kind === kind);
    const times = captured.map((c) => c.ms).sort((a, b) => a - b);
    const statuses: Record<string, number> = {};
    let bytes = 0;
    for (const q of of) {
      const a = distinct.get(answerKeyOf(q))!.answer;
      statuses[a.status] = (statuses[a.status] ?? 0) + 1;
      bytes += Buffer.byteLength(a.body, 'base64');
    }
    out[kind] = {
      share_pct: Math.round((of.length * 1000) / rotation.length) / 10,
      requests: of.length,
      distinct: captured.length,
      large: of.filter((q) => q.large).length,
      statuses,
      first_sight_p50_ms: round2(median(times)),
      first_sight_p99_ms: round2(times[Math.min(times.length - 1, Math.floor(times.length * 0.99))]!),
      first_sight_max_ms: round2(times.at(-1)!),
      mean_bytes: Math.round(bytes / of.length),
    };
  }
  return out;
}

const round2 = (x: number) => Math.round(x * 100) / 100;

/** The statuses each kind should get; others are named on the sanity line. */
const EXPECTED: Record<Kind, number> = {
  list: 200,
  detail: 200,
  'list 304': 304,
  'detail 304': 304,
  'filtered list': 200,
  'rental page': 200,
  'rental page, unknown': 404,
  'revoked key': 401,
  'unknown key': 401,
  'malformed key': 401,
};

function unexpectedStatuses(kinds: Record<string, KindFigures>, sanity: string[]) {
  for (const [kind, k] of Object.entries(kinds)) {
    const other = Object.entries(k.statuses).filter(([s]) => Number(s) !== EXPECTED[kind as Kind]);
    if (other.length > 0)
      sanity.push(
        `field mix: ${kind} (expected ${EXPECTED[kind as Kind]}) got ${other.map(([s, n]) => `${n} x ${s}`).join(', ')} at capture`,
      );
  }
}

async function inParallel<T>(items: readonly T[], width: number, fn: (item: T) => Promise<void>) {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await fn(items[next++]!);
  };
  await Promise.all(Array.from({ length: width }, worker));
}

/** The field mix's tables: the mix itself (what ours answered on first sight), then the three servers on it. */
export function fieldTables(e: FieldEntry): string {
  const kinds = Object.entries(e.kinds).map(([kind, k]) => [
    kind,
    `${k.share_pct} %`,
    k.requests,
    k.distinct,
    k.large,
    Object.entries(k.statuses)
      .map(([s, n]) => (Object.keys(k.statuses).length === 1 ? s : `${s} x${n}`))
      .join(', '),
    k.mean_bytes,
    k.first_sight_p50_ms,
    k.first_sight_p99_ms,
    k.first_sight_max_ms,
  ]);
  const sides = (
    [
      ['ours', e.ours],
      ['ceiling (replays ours)', e.ceiling],
      ['peer (Fastify 5)', e.peer],
    ] as const
  ).map(([name, s]) => [
    name,
    s.rps,
    s.p50_ms,
    s.p99_ms,
    s.cpu_us_per_req,
    Math.round(s.core_busy * 100),
    Math.round(s.generator_busy * 100),
    Math.round(s.server_waited * 100),
    s.rss_mb,
  ]);
  return (
    table(
      [
        'kind',
        'share',
        'requests',
        'distinct',
        'to the large facility',
        'status at capture',
        'mean bytes',
        'first sight p50 ms',
        'p99 ms',
        'max ms',
      ],
      kinds,
    ) +
    `(first sight: ours' time for each distinct request when captured, one request at a time; ${e.distinct} distinct of ${e.rotation}, captured in ${e.capture_seconds} s)\n\n` +
    table(
      [
        'server',
        'req/s',
        'p50 ms',
        'p99 ms',
        'CPU µs/req',
        'core %',
        'load gen core %',
        'waited for core %',
        'peak RSS MB',
      ],
      sides,
    ) +
    `ours / ceiling (paired): req/s ${e.ratio_rps}, p99 ${e.ratio_p99}, CPU per request ${e.ratio_cpu}; ours / peer req/s ${e.ratio_rps_vs_peer}\n` +
    'the peer compresses nothing and sends no ETag (its 304 requests get a 200 with the body), and renders its own rental page\n'
  );
}
