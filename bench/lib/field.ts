// The field mix measured: ours' answer to each distinct request captured, then ours and a ceiling replaying them under
// the same rotation, each answering outside 2xx/3xx as often as ours did at capture.
import { setTimeout as delay } from 'node:timers/promises';
import { Agent } from 'node:http';
import type { BenchRun } from './context.ts';
import { describeDb } from './data.ts';
import {
  answerKeyOf,
  FIELD_FULL,
  FIELD_QUICK,
  fieldRotation,
  generateFieldDb,
  issueFieldKeys,
  KINDS,
  type FieldSettings,
  type Kind,
  type MixRequest,
} from './field-mix.ts';
import { compare, ratiosOf, sideOf } from './measure.ts';
import { sidesTable, table } from './report.ts';
import { capture, differences, headerOf, startCeiling, type CapturedAnswer, type Replayed } from './replay.ts';
import { startOurs, type ServerProcess } from './servers.ts';
import { hooksTls, startHooks } from './webhooks.ts';

/** A database of these settings and ours serving it behind a trusted proxy (with its panel for abuse), keys issued. */
export async function startWorld(settings: FieldSettings, panel: boolean, r: BenchRun, env?: Record<string, string>) {
  const db = generateFieldDb(r.dir, settings);
  r.out(`\n${panel ? 'abuse' : 'field'} database: ${describeDb(db)}, generated in ${db.seconds.toFixed(1)} s\n`);
  const name = `ours (${panel ? 'abuse' : 'field'})`;
  const ours = r.track(await startOurs(name, db.file, { trustProxy: '127.0.0.1', panel, env }));
  // Every key is issued (and some revoked) before any measuring: a write to the database empties ours' caches.
  return { db, ours, world: issueFieldKeys(db, settings) };
}

/** 304 requests get the ETag ours gave them without If-None-Match; then each distinct request's answer, one by one. */
async function captureRotation(rotation: MixRequest[], ours: ServerProcess, agent: Agent) {
  const etags = new Map<string, string | undefined>();
  for (const q of rotation) {
    if (!q.revalidates) continue;
    const key = answerKeyOf(q.revalidates);
    if (!etags.has(key))
      etags.set(key, headerOf(await capture(ours.url + q.path, q.revalidates.headers, agent), 'etag'));
    q.headers['if-none-match'] = etags.get(key) ?? ''; // none: the request gets a 200, named at kindsOf
  }
  // First sights of pages come faster than the server renders pages for everyone: asked again after Retry-After.
  const answerOf = async (q: MixRequest): Promise<CapturedAnswer> => {
    const a = await capture(ours.url + q.path, q.headers, agent);
    return a.status === 503 && headerOf(a, 'retry-after') === '1' ? delay(1000).then(() => answerOf(q)) : a;
  };
  const distinct = new Map<string, Replayed & { request: MixRequest }>();
  for (const q of rotation)
    if (!distinct.has(answerKeyOf(q))) distinct.set(answerKeyOf(q), { request: q, answer: await answerOf(q) });
  return distinct;
}

/** Per kind: its share of the rotation and the statuses it got at capture; unexpected ones go to the sanity lines. */
function kindsOf(rotation: MixRequest[], answerOf: (q: MixRequest) => CapturedAnswer, r: BenchRun) {
  const kinds: Record<string, { share_pct: number; statuses: Record<string, number> }> = {};
  for (const q of rotation) {
    const k = (kinds[q.kind] ??= { share_pct: 0, statuses: {} });
    const status = answerOf(q).status;
    k.share_pct += 100 / rotation.length;
    k.statuses[status] = (k.statuses[status] ?? 0) + 1;
  }
  for (const [kind, k] of Object.entries(kinds)) {
    k.share_pct = Math.round(k.share_pct * 10) / 10;
    const other = Object.keys(k.statuses).filter((s) => Number(s) !== KINDS[kind as Kind]);
    const say = other.some((s) => s >= '500') ? r.broken : r.sanity;
    if (other.length > 0) say.push(`field mix: ${kind} got ${JSON.stringify(k.statuses)} at capture`);
  }
  return kinds;
}

/** `webhooks`: an endpoint per live key receiving, and a test event every 250 ms (webhooks.ts). */
export async function fieldMix(r: BenchRun, webhooks = false) {
  const settings = { ...(r.quick ? FIELD_QUICK : FIELD_FULL), unkeyedLarge: 0 };
  const tls = webhooks ? hooksTls(r.dir) : undefined;
  const { db, ours, world } = await startWorld(settings, false, r, tls?.env);
  const hooks = tls && (await startHooks(db, world, tls));
  const base =
    r.base === undefined
      ? undefined
      : r.track(await startOurs('base', db.file, { checkout: r.base, trustProxy: '127.0.0.1', env: tls?.env }));
  const rotation = fieldRotation(world, settings);
  const agent = new Agent({ keepAlive: true, maxSockets: 4, timeout: 4_000 }); // below the server's keep-alive, 5 s
  const began = performance.now();
  const distinct = await captureRotation(rotation, ours, agent);
  const seconds = Math.round((performance.now() - began) / 100) / 10;
  // The base build sees every distinct request once too: first sights stay out of its rounds as out of ours'.
  if (base) for (const c of distinct.values()) await capture(base.url + c.request.path, c.request.headers, agent);
  const ceiling = r.track(await startCeiling(distinct.values()));
  const sample = [...distinct.values()].filter((_, i) => i % Math.max(1, Math.floor(distinct.size / 300)) === 0);
  for (const c of sample) {
    const diff = differences(c.answer, await capture(ceiling.url + c.request.path, c.request.headers, agent));
    if (diff.length > 0) {
      r.broken.push(`field mix: the ceiling does not answer ${c.request.path} as ours did: ${diff.join('; ')}`);
      break;
    }
  }
  // Twice the rounds: the field mix's ratio is the goal, and this machine's speed moves from round to round.
  const servers = [ours, ceiling, ...(base ? [base] : [])];
  const measured = await compare(servers, () => rotation, { ...r, rounds: r.rounds * 2 });
  const [o, , b] = measured.rounds;
  agent.destroy();
  await hooks?.stop();
  for (const s of servers) await s.stop();
  if (ceiling.misses() !== 0) r.broken.push(`field mix: the ceiling had no answer for ${ceiling.misses()} requests`);
  // Each server's answers outside 2xx/3xx in the rounds against the share at capture: another share, other answers.
  const answerOf = (q: MixRequest) => distinct.get(answerKeyOf(q))!.answer;
  const captured =
    Math.round((rotation.filter((q) => answerOf(q).status >= 400).length / rotation.length) * 1000) / 1000;
  for (const [i, rounds] of measured.rounds.entries()) {
    const sum = (f: (x: (typeof rounds)[number]) => number) => rounds.reduce((a, x) => a + f(x), 0);
    const share = Math.round((sum((x) => x.errorAnswers) / sum((x) => x.requests)) * 1000) / 1000;
    if (Math.abs(share - captured) > 0.01 || sum((x) => x.socketErrors) > 0)
      r.sanity.push(
        `field mix: ${servers[i]!.name} answered ${share} outside 2xx/3xx (${captured} at capture), socket errors ${sum((x) => x.socketErrors)}`,
      );
  }

  const entry = {
    database: describeDb(db),
    keys: { live: world.keys.length, revoked: world.revoked.length, keyed_facilities: world.keyed.length },
    rotation: rotation.length,
    distinct: distinct.size,
    capture_seconds: seconds,
    kinds: kindsOf(rotation, answerOf, r),
    ours: measured.sides[0]!,
    ceiling: measured.sides[1]!,
    ...measured.ratios,
    ...(b && { base: sideOf(b), vs_base: ratiosOf(o!, b) }),
    ...(hooks && { webhooks: hooks.figures() }),
  };
  if (entry.ratio_rps > 1)
    r.sanity.push(`field mix: ours at ${entry.ratio_rps}x a server that only replays its answers`);
  // A ceiling short of its core was held back by the generator or the machine: its req/s understates it.
  if (entry.ceiling.core_busy < 0.85)
    r.sanity.push(`field mix: the ceiling kept its core ${entry.ceiling.core_busy} busy: compare CPU µs/req`);
  const hooked = entry.webhooks
    ? `; webhooks: ${entry.webhooks.endpoints} endpoints, ${entry.webhooks.test_events} test events, ${entry.webhooks.deliveries} deliveries received`
    : '';
  r.out(
    `\nfield mix${webhooks ? ', webhooks' : ''} (${entry.database}${hooked}; ${entry.keys.live} live keys on ${entry.keys.keyed_facilities} facilities and ` +
      `${entry.keys.revoked} revoked; ${rotation.length} requests rotating, ${distinct.size} distinct, captured in ${seconds} s; ` +
      `${r.load.connections} connections, ${o!.length} rounds of ${r.load.duration} s per side):\n` +
      table(
        ['kind', 'share %', 'statuses at capture'],
        Object.entries(entry.kinds).map(([kind, k]) => [kind, k.share_pct, JSON.stringify(k.statuses)]),
      ) +
      sidesTable(
        ['ours', 'ceiling', 'base'],
        measured.sides,
        ['ours / ceiling', measured.ratios],
        ['ours / base', entry.vs_base],
      ),
  );
  return entry;
}
