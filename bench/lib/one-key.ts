// One key, one request again and again: ours against a ceiling replaying ours' answer (and against another checkout's
// build with --base), on several fresh sets of processes, since each process settles a little faster or slower.
import type { BenchRun } from './context.ts';
import { generateDb, issueKeys, listingIdIn } from './data.ts';
import type { BenchRequest } from './load.ts';
import { pairedRounds, ratiosOf, sideOf, type Ratios, type Round, type Side } from './measure.ts';
import { sidesTable } from './report.ts';
import { capture, differences, headerOf, startCeiling } from './replay.ts';
import { startOurs, type ServerProcess } from './servers.ts';

export interface Entry extends Ratios {
  status: number;
  bytes: number;
  ours: Side;
  ceiling: Side;
  base?: Side;
  /** Ours over the base checkout's build. */
  vs_base?: Ratios;
}

const SCENARIOS = ['list 200', 'list 200, br', 'detail 200', 'list 304', 'list 200, request log on'];

/** Every selected scenario's entry, its rounds spread over `processes` fresh sets of processes. */
export async function oneKeyScenarios(r: BenchRun, selected: (name: string) => boolean, processes: number) {
  const names = SCENARIOS.filter(selected);
  if (names.length === 0) return undefined;
  const db = generateDb(r.dir, 'one-key', r.quick ? 200 : 1000, 50);
  const key = issueKeys(db, 1)[0]!;
  const list = { path: '/external/listings', headers: { 'x-api-key': key } };
  const perSet = Math.max(1, Math.round(r.rounds / processes));
  const rounds = new Map<string, Round[][]>();
  const answers = new Map<string, { status: number; bytes: number }>();
  for (let p = 0; p < processes; p++) {
    const started: ServerProcess[] = [];
    const start = async (name: string, log = false, checkout?: string) =>
      started[started.push(r.track(await startOurs(name, db.file, { log, checkout }))) - 1]!;
    const ours = await start('ours');
    const base = r.base === undefined ? undefined : await start('base', false, r.base);
    const etag = headerOf(await capture(ours.url + list.path, list.headers), 'etag')!;
    const requests: Record<string, BenchRequest> = {
      'list 200': list,
      'list 200, br': { path: list.path, headers: { ...list.headers, 'accept-encoding': 'br, gzip' } },
      'detail 200': { path: `${list.path}/${listingIdIn(0, 7)}`, headers: list.headers },
      'list 304': { path: list.path, headers: { ...list.headers, 'if-none-match': etag } },
      'list 200, request log on': list,
    };
    // One ceiling serves every scenario in the same order as ours: both carry the same history into each.
    const replayed = await Promise.all(
      names.map(async (name) => ({
        request: requests[name]!,
        answer: await capture(ours.url + requests[name]!.path, requests[name]!.headers),
      })),
    );
    const ceiling = r.track(await startCeiling(replayed));
    started.push(ceiling);
    const logged = names.some((n) => n.includes('log')) ? await start('ours + request log', true) : undefined;
    for (const [i, name] of names.entries()) {
      const request = requests[name]!;
      const { answer } = replayed[i]!;
      const diff = differences(answer, await capture(ceiling.url + request.path, request.headers));
      if (diff.length > 0) r.broken.push(`${name}: the ceiling answers otherwise than ours: ${diff.join('; ')}`);
      answers.set(name, { status: answer.status, bytes: answer.body.length });
      const servers = [name.includes('log') ? logged! : ours, ceiling, ...(base ? [base] : [])];
      await pairedRounds(servers, [request], r.warmUp, 1);
      const part = await pairedRounds(servers, [request], r.load, perSet, p * perSet);
      for (const [s, rs] of part.entries())
        if (rs.some((x) => x.errorAnswers + x.socketErrors > 0))
          r.broken.push(`${name}: ${servers[s]!.name} had errors`);
      const all = rounds.get(name) ?? servers.map(() => []);
      rounds.set(
        name,
        all.map((rs, s) => [...rs, ...part[s]!]),
      );
    }
    for (const s of started) await s.stop();
  }
  const entries: Record<string, Entry> = {};
  for (const [name, [ours, ceiling, base]] of rounds) {
    const e: Entry = {
      ...answers.get(name)!,
      ours: sideOf(ours!),
      ceiling: sideOf(ceiling!),
      ...ratiosOf(ours!, ceiling!),
    };
    if (base) Object.assign(e, { base: sideOf(base), vs_base: ratiosOf(ours!, base) });
    entries[name] = e;
    if (e.ratio_rps > 1) r.sanity.push(`${name}: ours at ${e.ratio_rps}x a server that only replays its answer`);
    const sides: [string, Side][] = [
      ['ours', e.ours],
      ['ceiling', e.ceiling],
    ];
    r.out(
      `\n${name} (${e.status}, ${e.bytes} bytes; ${processes} sets of processes x ${perSet} rounds of ${r.load.duration} s):\n`,
    );
    r.out(sidesTable(sides, e));
    if (e.base)
      r.out(
        sidesTable(
          [
            ['ours', e.ours],
            ['base', e.base],
          ],
          e.vs_base,
        ),
      );
  }
  return { database: { facilities: db.facilities, listings_per_facility: 50 }, entries };
}
