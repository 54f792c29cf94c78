// The abuse scenario: a well-behaved partner polls at a fixed rate (open loop) while, in every other round, a pattern of
// abuse runs (abuser.ts): one key at its rate limit sending distinct filter values beside anonymous rental pages as
// fast as they are answered; an anonymous client rotating through large facilities' rental pages; a crawl of every
// rental page of a large facility with long fields; an upload flood to the panel's /login. Rounds alternate (alone,
// with abuse) on the same server, then windows; the partner's p50/p99 of each are compared, and ours' RSS through each.
import { abusersOf, runAbuser, type AbuserRun, type Pattern, type PatternTarget } from './abuse-patterns.ts';
import {
  ascending,
  byWindow,
  percentile,
  round3,
  summarise,
  type Condition,
  type Summary,
  type Switch,
} from './abuse-stats.ts';
import type { AbuserConfig } from './abuser.ts';
import { createKeys, listingIdIn, type IssuedKey } from './data.ts';
import type { FieldWorld } from './field-mix.ts';
import type { BenchRequest } from './load.ts';
import type { OpenLoopResult } from './open-loop.ts';
import { startPartner, type Partner } from './partner-client.ts';
import { seeded, intIn } from './random.ts';
import { median, ratio } from './report.ts';
import { capture } from './capture.ts';
import { cpuMs, resetPeakRss, rssMb, waitedForCoreMs } from './proc.ts';
import type { ServerProcess } from './servers.ts';

export interface AbuseTarget {
  /** "a 200-listing facility", "the 10,000-listing facility". */
  label: string;
  facility: number;
  size: number;
}

export interface AbuseKeys {
  target: AbuseTarget;
  /** The server's default limit (100/s, burst 500), like every key an operator creates without options. */
  abuser: IssuedKey;
  /** Default limits too: the partner stays under them (rate / 4 per key). */
  partners: IssuedKey[];
}

export interface AbuseSettings {
  rounds: number;
  /** Seconds of partner traffic per round and condition. */
  seconds: number;
  /** The partner's requests per second, over its four keys. */
  rate: number;
  /** Connections of each closed-loop abuser (filter, rent, crawl). */
  connections: number;
  /** crawl: one pass over every page before the rounds, for ours' peak RSS through all of them. */
  crawl_pass: boolean;
}

// Four rounds and eight windows of each condition per pattern and target: the eight pairs take about 7 minutes.
export const ABUSE_FULL: AbuseSettings = { rounds: 4, seconds: 3, rate: 300, connections: 8, crawl_pass: true };
export const ABUSE_QUICK: AbuseSettings = { rounds: 1, seconds: 1, rate: 300, connections: 8, crawl_pass: false };

/** The largest ordinary keyed facility, and the large one: an abuser picks a big facility's public key. */
export function abuseTargets(world: FieldWorld): AbuseTarget[] {
  const ordinary = world.keyed.filter((f) => f !== world.large);
  const biggest = ordinary.reduce((a, b) => (world.db.sizes[b]! > world.db.sizes[a]! ? b : a));
  const label = (f: number) => `${world.db.sizes[f]!.toLocaleString('en-US')}-listing facility`;
  return [
    { label: `a ${label(biggest)}`, facility: biggest, size: world.db.sizes[biggest]! },
    { label: `the ${label(world.large)}`, facility: world.large, size: world.db.sizes[world.large]! },
  ];
}

/** Keys with default limits: the abuser's on the target, the partner's on the target and three other facilities. */
export function issueAbuseKeys(world: FieldWorld, targets: readonly AbuseTarget[]): AbuseKeys[] {
  return targets.map((target) => {
    const others = world.keyed.filter((f) => f !== target.facility && f !== world.large).slice(0, 3);
    const [abuser, ...partners] = createKeys(
      world.db,
      [target.facility, target.facility, ...others].map((facility) => ({ facility })),
    );
    return { target, abuser: abuser!, partners };
  });
}

export interface AbuseEntry {
  target: AbuseTarget;
  pattern: Pattern;
  settings: AbuseSettings;
  alone: Summary;
  with_abuse: Summary;
  /** The partner's p99 with abuse over its p99 alone: all rounds' latencies pooled, and the median of per-round
   * ratios. */
  ratio_p99_pooled: number;
  ratio_p99_paired: number;
  ratio_p50_pooled: number;
  /** Abuse switched on and off in windows while the partner polls throughout (measureInWindows). */
  in_windows?: Windowed;
  /** Ours' RSS (its panel's too, in the same process) before the pattern, its peak through it (VmHWM, reset at the
   * start when Linux lets us: else since ours started) and after it, in MB. */
  rss: { before_mb: number; peak_mb: number; after_mb: number; peak_since: 'pattern' | 'start' };
  /** crawl: the pass over every page before the rounds, alone. */
  crawl_pass?: { pages: number; seconds: number; statuses: Record<string, number> };
}

/** The partner's p99 in the windows with abuse and in those without, after each window's guard. */
interface Windowed {
  window_ms: number;
  guard_ms: number;
  windows: number;
  alone_p99_ms: number;
  abuse_p99_ms: number;
  ratio_p99: number;
}

/** The partner's rotation: list, detail, list 304, detail 304 over its keys, If-None-Match with ours' ETags. */
async function partnerRequests(world: FieldWorld, keys: AbuseKeys, url: string): Promise<BenchRequest[]> {
  const rand = seeded(7);
  const out: BenchRequest[] = [];
  for (let i = 0; i < 400; i++) {
    const k = keys.partners[i % keys.partners.length]!;
    const kind = Math.floor(i / keys.partners.length) % 4;
    const path =
      kind % 2 === 0
        ? '/external/listings'
        : `/external/listings/${listingIdIn(k.facility, intIn(rand, 0, world.db.sizes[k.facility]! - 1))}`;
    const headers: Record<string, string> = {
      'x-api-key': k.key,
      'accept-encoding': 'br, gzip',
      'x-forwarded-for': '198.19.253.1',
    };
    if (kind >= 2) {
      const etag = (await capture(url + path, headers)).headers.find((_, j, h) => h[j - 1]?.toLowerCase() === 'etag');
      if (etag !== undefined) headers['if-none-match'] = etag;
    }
    out.push({ path, headers });
  }
  return out;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The partner alone and beside one pattern, in rounds and then in windows, and ours' RSS through it. */
export async function measureAbuse(
  world: FieldWorld,
  keys: AbuseKeys,
  ours: ServerProcess,
  s: AbuseSettings,
  pattern: Pattern,
  broken: string[],
): Promise<AbuseEntry> {
  const where = `${keys.target.label}, ${pattern}`;
  const t: PatternTarget = {
    world,
    facility: keys.target.facility,
    size: keys.target.size,
    abuserKey: keys.abuser.key,
    ours,
  };
  const abusers = (seconds: number, seed: number) => abusersOf(pattern, t, s.connections, seconds, seed);
  const rssBefore = rssMb(ours.pid);
  const peakSince = resetPeakRss(ours.pid) ? 'pattern' : 'start';
  // A crawl visits every page once before the rounds, however long that takes: memory is judged through all of them.
  let crawlPass: AbuseEntry['crawl_pass'];
  if (pattern === 'crawl' && s.crawl_pass) {
    const [config] = abusers(0, 999);
    const pass = await runAbuser({ ...config!, once: true });
    crawlPass = { pages: pass.sent, seconds: Math.round(pass.seconds * 10) / 10, statuses: pass.statuses };
  }
  const partner = await partnerRequests(world, keys, ours.url);
  const client = startPartner(ours.url, partner);
  const runs = { alone: [] as Condition[], abuse: [] as Condition[] };
  let windowed: Windowed;
  // The partner's process is stopped however the scenario ends: its IPC channel would keep the bench alive.
  try {
    await client.run(s.rate, 1); // warm-up: connections open, JIT warm
    let sent = 0;
    for (let i = 0; i < s.rounds; i++) {
      for (const condition of i % 2 === 0 ? (['alone', 'abuse'] as const) : (['abuse', 'alone'] as const)) {
        const cpu = cpuMs(ours.pid);
        const waited = waitedForCoreMs(ours.pid);
        const began = performance.now();
        let running: Promise<AbuserRun[]> | undefined;
        // The abusers run a second longer than the partner, which starts half a second into the abuse.
        const configs = abusers(s.seconds + 1, 1000 + i);
        if (condition === 'abuse') {
          running = Promise.all(configs.map((c) => runAbuser(c)));
          await sleep(500);
        }
        const result = await client.run(s.rate, s.seconds, sent);
        sent += result.sent;
        const done = running && (await running);
        const wall = performance.now() - began;
        const busy = (cpuMs(ours.pid) - cpu) / wall;
        const serverWaited = Math.max(0, (waitedForCoreMs(ours.pid) - waited) / wall);
        runs[condition].push({
          partner: result,
          core_busy: Math.round(busy * 100) / 100,
          server_waited: Math.round(serverWaited * 1000) / 1000,
          abusers: done?.map((a, j) => ({
            mode: configs[j]!.mode,
            sent: a.sent,
            rps: Math.round(a.sent / a.seconds),
            statuses: a.statuses,
          })),
        });
        checkPartner(result, `${where}, ${condition}`, broken);
        await sleep(250);
      }
    }
    const seconds = (4 * s.rounds * WINDOW_MS) / 1000;
    windowed = await measureInWindows(abusers(seconds + 1, 2000), client, s.rate, seconds, sent, where, broken);
  } finally {
    client.stop();
  }
  const alone = summarise(runs.alone);
  const abuse = summarise(runs.abuse);
  return {
    target: keys.target,
    pattern,
    settings: s,
    alone,
    with_abuse: abuse,
    ratio_p99_pooled: ratio(abuse.p99_ms, alone.p99_ms),
    ratio_p99_paired: ratio(median(abuse.rounds.map((r, i) => r.p99_ms / alone.rounds[i]!.p99_ms)), 1),
    ratio_p50_pooled: ratio(abuse.p50_ms, alone.p50_ms),
    in_windows: windowed,
    rss: {
      before_mb: Math.round(rssBefore),
      peak_mb: Math.round(rssMb(ours.pid, 'VmHWM')),
      after_mb: Math.round(rssMb(ours.pid)),
      peak_since: peakSince,
    },
    crawl_pass: crawlPass,
  };
}

/** Abuse on and off by turns of this length, in measureInWindows. */
export const WINDOW_MS = 1000;
/** The start of each window left out: answers to requests sent before the switch, and the abusers' first burst. */
const GUARD_MS = 200;

/**
 * After the rounds: the abusers run throughout, stopped (SIGSTOP) and resumed (SIGCONT) every WINDOW_MS, while the
 * partner polls throughout; each answer counts for the window it was due in. Rounds of seconds let a slow spell of
 * the machine land on one condition; windows of a second share such spells between the two.
 */
async function measureInWindows(
  configs: readonly AbuserConfig[],
  client: Partner,
  rate: number,
  seconds: number,
  start: number,
  where: string,
  broken: string[],
): Promise<Windowed> {
  const pids: number[] = [];
  const running = Promise.all(configs.map((c) => runAbuser(c, (pid) => pids.push(pid))));
  const signal = (name: 'SIGSTOP' | 'SIGCONT') =>
    pids.forEach((pid) => {
      try {
        process.kill(pid, name);
      } catch {
        // An abuser that exited early: its run reports it.
      }
    });
  signal('SIGSTOP');
  const switches: Switch[] = [{ at: performance.now(), abuse: false }];
  const turns = setInterval(() => {
    const abuse = !switches.at(-1)!.abuse;
    signal(abuse ? 'SIGCONT' : 'SIGSTOP');
    switches.push({ at: performance.now(), abuse });
  }, WINDOW_MS);
  let result: OpenLoopResult;
  try {
    result = await client.run(rate, seconds, start);
  } finally {
    clearInterval(turns);
    signal('SIGCONT');
  }
  await running;
  checkPartner(result, `${where}, in windows`, broken);
  const latencies = byWindow(result, switches, GUARD_MS);
  const p99 = (xs: number[]) => round3(percentile(ascending(xs), 99));
  const [alone, abuse] = [p99(latencies.alone), p99(latencies.abuse)];
  return {
    window_ms: WINDOW_MS,
    guard_ms: GUARD_MS,
    windows: seconds / 2 / (WINDOW_MS / 1000),
    alone_p99_ms: alone,
    abuse_p99_ms: abuse,
    ratio_p99: ratio(abuse, alone),
  };
}

/** A partner that got error statuses or failed requests is a broken run, named with `where`. */
function checkPartner(result: OpenLoopResult, where: string, broken: string[]): void {
  const bad = Object.entries(result.statuses).filter(([status]) => Number(status) >= 400);
  if (bad.length > 0 || result.failed > 0)
    broken.push(
      `abuse (${where}): the partner got ${bad.map(([st, n]) => `${n} x ${st}`).join(', ') || 'no error status'}, ${result.failed} failed requests${failures(result.errors)}`,
    );
}

const failures = (errors: Record<string, number>) => {
  const named = Object.entries(errors).map(([code, n]) => `${n} x ${code}`);
  return named.length > 0 ? ` (${named.join(', ')})` : '';
};
