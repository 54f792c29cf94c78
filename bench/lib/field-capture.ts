// The field mix's first step: ours' answer to every distinct request of the rotation, asked one at a time (its time is
// ours' first sight of it), what each kind of request got, and the file from which the ceiling replays those answers.
import type { Agent } from 'node:http';
import { capture, type CapturedAnswer } from './capture.ts';
import { answerKeyOf, KINDS, type Kind, type MixRequest } from './field-mix.ts';
import type { BenchRequest } from './load.ts';
import { median } from './report.ts';
import type { ServerProcess } from './servers.ts';

export interface Captured {
  request: MixRequest;
  answer: CapturedAnswer;
  ms: number;
}

/** What each kind of request got at capture: counts, statuses, ours' time on first sight, bytes. */
export interface KindFigures {
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

export interface Capture {
  /** By answerKeyOf: each distinct request with ours' answer and time. */
  distinct: Map<string, Captured>;
  seconds: number;
  kinds: Record<string, KindFigures>;
  /** The status at capture of each request of the rotation, in its order. */
  statuses: number[];
}

/** Gives each 304 request of the rotation its ETag, then captures; what broke or looks off goes to r. */
export async function captureRotation(
  rotation: MixRequest[],
  ours: ServerProcess,
  agent: Agent,
  r: { broken: string[]; sanity: string[] },
): Promise<Capture> {
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
  const seconds = Math.round((performance.now() - started) / 100) / 10;
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
  return { distinct, seconds, kinds, statuses };
}

function headerOf(a: CapturedAnswer, name: string): string | undefined {
  for (let i = 0; i < a.headers.length; i += 2) if (a.headers[i]!.toLowerCase() === name) return a.headers[i + 1];
  return undefined;
}

/** The ceiling's file (see bench/ceiling-mix.mjs): each distinct request with ours' answer, bodies stored once. */
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
