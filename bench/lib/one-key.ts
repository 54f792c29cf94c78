// One key, one request again and again: ours against a ceiling replaying ours' answer (and the --base build).
import type { BenchRun } from './context.ts';
import { generateDb, issueKeys, listingIdIn } from './data.ts';
import type { BenchRequest } from './load.ts';
import { compare, ratiosOf } from './measure.ts';
import { sidesTable } from './report.ts';
import { capture, differences, headerOf, startCeiling } from './replay.ts';
import { startOurs, type ServerProcess } from './servers.ts';

const NAMES = ['list 200', 'list 200, br', 'detail 200', 'list 304', 'list 200, request log on'];

export async function oneKeyScenarios(r: BenchRun, selected: (name: string) => boolean) {
  const names = NAMES.filter(selected);
  if (names.length === 0) return undefined;
  const db = generateDb(r.dir, 'one-key', Array(r.quick ? 200 : 1000).fill(50));
  const key = issueKeys(db, 1)[0]!;
  const started: ServerProcess[] = [];
  const start = async (name: string, log = false, checkout?: string) =>
    started[started.push(r.track(await startOurs(name, db.file, { log, checkout }))) - 1]!;
  const ours = await start('ours');
  const logged = names.some((n) => n.includes('log')) ? await start('ours + request log', true) : undefined;
  const base = r.base === undefined ? undefined : await start('base', false, r.base);
  // The request log's scenario compares with the base's request log on as well.
  const baseLogged = base && logged ? await start('base + request log', true, r.base) : undefined;
  const list = { path: '/external/listings', headers: { 'x-api-key': key } };
  const etag = headerOf(await capture(ours.url + list.path, list.headers), 'etag')!;
  const requests: Record<string, BenchRequest> = {
    'list 200': list,
    'list 200, br': { path: list.path, headers: { ...list.headers, 'accept-encoding': 'br, gzip' } },
    'detail 200': { path: `${list.path}/${listingIdIn(0, 7)}`, headers: list.headers },
    'list 304': { path: list.path, headers: { ...list.headers, 'if-none-match': etag } },
    'list 200, request log on': list,
  };
  // One ceiling serves every scenario in the same order as ours: both carry the same history into each.
  const replayed = [];
  for (const name of names)
    replayed.push({
      request: requests[name]!,
      answer: await capture(ours.url + requests[name]!.path, requests[name]!.headers),
    });
  const ceiling = r.track(await startCeiling(replayed));
  started.push(ceiling);
  const entries: Record<string, object> = {};
  for (const [i, name] of names.entries()) {
    const { request, answer } = replayed[i]!;
    const diff = differences(answer, await capture(ceiling.url + request.path, request.headers));
    if (diff.length > 0) r.broken.push(`${name}: the ceiling answers otherwise than ours: ${diff.join('; ')}`);
    const log = name.includes('log');
    const servers = [log ? logged! : ours, ceiling, ...(base ? [log ? baseLogged! : base] : [])];
    const { sides, ratios, rounds } = await compare(servers, () => [request], r);
    for (const [s, rs] of rounds.entries())
      if (rs.some((x) => x.errorAnswers + x.socketErrors > 0)) r.broken.push(`${name}: ${servers[s]!.name} had errors`);
    const vsBase = base && ratiosOf(rounds[0]!, rounds[2]!);
    const [status, bytes] = [answer.status, answer.body.length];
    entries[name] = { status, bytes, ours: sides[0], ceiling: sides[1], ...ratios, base: sides[2], vs_base: vsBase };
    if (ratios.ratio_rps > 1) r.sanity.push(`${name}: ours at ${ratios.ratio_rps}x a server that only replays bytes`);
    r.out(`\n${name} (${status}, ${bytes} bytes; ${r.rounds} rounds of ${r.load.duration} s per side):\n`);
    r.out(sidesTable(['ours', 'ceiling', 'base'], sides, ['ours / ceiling', ratios], ['ours / base', vsBase]));
  }
  for (const s of started) await s.stop();
  return { database: { facilities: db.facilities, listings_per_facility: 50 }, entries };
}
