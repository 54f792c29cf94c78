// The field mix measured: ours' answer to every distinct request of the rotation captured first (field-capture.ts),
// then ours, a ceiling replaying those answers and the Fastify peer take turns under the same rotation, each round
// starting at another place in it; afterwards every distinct request is asked again, to check that ours still answers
// as it did when captured.
import { Agent } from 'node:http';
import { describeDb } from './data.ts';
import { captureRotation, type KindFigures } from './field-capture.ts';
import type { FieldSettings, FieldWorld, MixRequest } from './field-mix.ts';
import type { Generator, Load } from './load.ts';
import { measure, type Round } from './measure.ts';
import { sideOf, type Side } from './report.ts';
import { pairedInterval, pairedRatio } from './scenarios.ts';
import { capture, differences } from './capture.ts';
import { startCeiling } from './ceilings.ts';
import type { ServerProcess } from './servers.ts';

export interface FieldRun {
  generator: string;
  run: Generator;
  load: Load;
  warmUp: Load;
  rounds: number;
  /** Rounds of ours and the ceiling in the field mix (the peer runs in every third): its ratio is the one goal that
   * needs the precision, and this machine's speed moves by tens of percent from one round to the next. */
  pairs: number;
  dir: string;
  /** Registers a started server, so that an unexpected exit is reported. */
  track: <T extends ServerProcess>(s: T) => T;
  /** Where what broke is written (5xx answers, a ceiling that answers otherwise). */
  broken: string[];
  /** Where figures not to quote are explained. */
  sanity: string[];
  out: (text: string) => void;
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
  /** The 95 % interval of ratio_rps (a median over the pairs of rounds), from the pairs' spread. */
  ratio_rps_interval: [number, number];
  ratio_p99: number;
  ratio_cpu: number;
  ratio_rps_vs_peer: number;
  /** Per side and round: answers outside 2xx/3xx against how many the captured answers predict. */
  error_answers: { side: string; round: number; observed: number; expected: number }[];
  /** Statuses that changed between capture and the check after the rounds ("200 -> 429": count). */
  changed_after: Record<string, number>;
}

export async function measureFieldMix(
  world: FieldWorld,
  settings: FieldSettings,
  rotation: MixRequest[],
  ours: ServerProcess,
  peer: ServerProcess,
  r: FieldRun,
): Promise<FieldEntry> {
  const agent = new Agent({ keepAlive: true, maxSockets: 4, timeout: 4_000 }); // below the server's Keep-Alive: timeout=5
  const { distinct, seconds: captureSeconds, kinds, statuses } = await captureRotation(rotation, ours, agent, r);

  const ceiling = r.track(await startCeiling(distinct.values()));
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
  for (let i = 0; i < r.pairs; i++) {
    // Each round starts elsewhere in the rotation, the same place for every side.
    const start = Math.floor((i * rotation.length) / r.pairs);
    // Ours and the ceiling back to back, in turn first; the peer (two orders of magnitude slower) in every third.
    const turn = i % 2 === 0 ? [servers[0]!, servers[1]!] : [servers[1]!, servers[0]!];
    if (i % 3 === 2) turn.push(servers[2]!);
    for (const [side, server] of turn) {
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
    ratio_rps_interval: pairedInterval(sides.ours, sides.ceiling, (x) => x.rps),
    ratio_p99: pairedRatio(sides.ours, sides.ceiling, (x) => x.p99),
    ratio_cpu: pairedRatio(sides.ours, sides.ceiling, (x) => x.cpu_us_per_req),
    // Each peer round against the ours round it followed.
    ratio_rps_vs_peer: pairedRatio(
      sides.ours.filter((_, i) => i % 3 === 2),
      sides.peer,
      (x) => x.rps,
    ),
    error_answers: errorAnswers,
    changed_after: changed,
  };
}

/** (start, n) -> how many of the n requests from `start` on (wrapping) were answered outside 2xx/3xx at capture. */
function errorsFrom(statuses: readonly number[]) {
  const before = [0];
  for (const s of statuses) before.push(before.at(-1)! + (s > 399 ? 1 : 0));
  const total = before.at(-1)!;
  const upTo = (i: number) => Math.floor(i / statuses.length) * total + before[i % statuses.length]!;
  return (start: number, n: number) => upTo(start + n) - upTo(start);
}

async function inParallel<T>(items: readonly T[], width: number, fn: (item: T) => Promise<void>) {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await fn(items[next++]!);
  };
  await Promise.all(Array.from({ length: width }, worker));
}
