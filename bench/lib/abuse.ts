// The abuse scenario: a well-behaved partner polls at a fixed rate (open loop) while, in every other round, one key at
// its rate limit sends distinct filter values and anonymous clients ask for rental pages as fast as they are answered.
// Rounds alternate (alone, with abuse) on the same server; the partner's p50/p99 of each are compared.
import { spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { createKeys, listingIdIn, type IssuedKey } from './data.ts';
import type { FieldWorld } from './field-mix.ts';
import type { BenchRequest } from './load.ts';
import type { OpenLoopResult } from './open-loop.ts';
import { startPartner, type Partner } from './partner-client.ts';
import { seeded, intIn } from './random.ts';
import { median, ratio } from './report.ts';
import { capture } from './capture.ts';
import { cpuMs, waitedForCoreMs } from './proc.ts';
import { BENCH_DIST, type ServerProcess } from './servers.ts';

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
  /** Connections of each abuser (the filter one and the rental page one). */
  connections: number;
}

export const ABUSE_FULL: AbuseSettings = { rounds: 8, seconds: 3, rate: 300, connections: 8 };
export const ABUSE_QUICK: AbuseSettings = { rounds: 1, seconds: 1, rate: 300, connections: 8 };

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

interface Condition {
  partner: OpenLoopResult;
  /** Ours' share of its core during the partner's traffic (with abuse: the abusers' too). */
  core_busy: number;
  /** Share of the time ours' event loop waited for its core while ready to run. */
  server_waited: number;
  abusers?: { mode: string; sent: number; rps: number; statuses: Record<string, number> }[];
}

export interface AbuseEntry {
  target: AbuseTarget;
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

interface Summary {
  partner_requests: number;
  p50_ms: number;
  p99_ms: number;
  max_ms: number;
  partner_statuses: Record<string, number>;
  partner_failed: number;
  core_busy: number;
  server_waited: number;
  /** The partner's client's own event-loop delay (ms), p99 of the median round and the largest: its stalls would count
   * in its latencies. */
  client_delay_p99_ms: number;
  client_delay_max_ms: number;
  abusers?: { mode: string; rps: number; statuses: Record<string, number> }[];
  rounds: { p50_ms: number; p99_ms: number; core_busy: number; server_waited: number }[];
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

/** One abuser process (dist/bench/abuser.mjs) for `seconds`; resolves with what it sent and got. */
function runAbuser(
  config: Record<string, unknown>,
  spawned?: (pid: number) => void,
): Promise<{ sent: number; statuses: Record<string, number>; seconds: number }> {
  return new Promise((resolve, reject) => {
    const node = [process.execPath, join(BENCH_DIST, 'abuser.mjs'), JSON.stringify(config)];
    // SCHED_IDLE: the abusers share the load core with the partner's client, which in the field is another machine.
    // At equal priority the partner's client waited for the abusers' time slices and its latencies counted that wait.
    const child = spawn(IDLE ? 'chrt' : node[0]!, IDLE ? ['-i', '0', ...node] : node.slice(1), {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    // chrt execs node: the pid is the abuser's own, for SIGSTOP and SIGCONT.
    spawned?.(child.pid!);
    let stdout = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.once('exit', (code) => {
      if (code !== 0) return reject(new Error(`the abuser (${String(config.mode)}) exited with ${code}`));
      resolve(JSON.parse(stdout) as { sent: number; statuses: Record<string, number>; seconds: number });
    });
  });
}

/** Whether util-linux's chrt is here to run the abusers under SCHED_IDLE. */
const IDLE = spawnSync('chrt', ['--version']).status === 0;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function measureAbuse(
  world: FieldWorld,
  keys: AbuseKeys,
  ours: ServerProcess,
  s: AbuseSettings,
  broken: string[],
): Promise<AbuseEntry> {
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
        let abusers: Promise<{ sent: number; statuses: Record<string, number>; seconds: number }[]> | undefined;
        if (condition === 'abuse') {
          // The abusers run a second longer than the partner, which starts half a second into the abuse.
          const common = { url: ours.url, seconds: s.seconds + 1, connections: s.connections, seed: 1000 + i };
          abusers = Promise.all([
            runAbuser({ ...common, mode: 'filter', key: keys.abuser.key }),
            runAbuser({ ...common, mode: 'rent', facility: keys.target.facility, size: keys.target.size }),
          ]);
          await sleep(500);
        }
        const result = await client.run(s.rate, s.seconds, sent);
        sent += result.sent;
        const done = abusers && (await abusers);
        const wall = performance.now() - began;
        const busy = (cpuMs(ours.pid) - cpu) / wall;
        const serverWaited = Math.max(0, (waitedForCoreMs(ours.pid) - waited) / wall);
        runs[condition].push({
          partner: result,
          core_busy: Math.round(busy * 100) / 100,
          server_waited: Math.round(serverWaited * 1000) / 1000,
          abusers: done?.map((a, j) => ({
            mode: j === 0 ? 'filter' : 'rent',
            sent: a.sent,
            rps: Math.round(a.sent / a.seconds),
            statuses: a.statuses,
          })),
        });
        checkPartner(result, `${keys.target.label}, ${condition}`, broken);
        await sleep(250);
      }
    }
    windowed = await measureInWindows(keys, ours, client, s, sent, broken);
  } finally {
    client.stop();
  }
  const alone = summarise(runs.alone);
  const abuse = summarise(runs.abuse);
  return {
    target: keys.target,
    settings: s,
    alone,
    with_abuse: abuse,
    ratio_p99_pooled: ratio(abuse.p99_ms, alone.p99_ms),
    ratio_p99_paired: ratio(median(abuse.rounds.map((r, i) => r.p99_ms / alone.rounds[i]!.p99_ms)), 1),
    ratio_p50_pooled: ratio(abuse.p50_ms, alone.p50_ms),
    in_windows: windowed,
  };
}

/** When abuse was switched on or off. */
export interface Switch {
  at: number;
  abuse: boolean;
}

/**
 * The partner's latencies by the window each request was due in (the last switch at or before its due time), leaving
 * out those due within `guard` ms of their window's start and those due before the first switch.
 */
export function byWindow(
  result: Pick<OpenLoopResult, 'latencies' | 'due'>,
  switches: readonly Switch[],
  guard: number,
): { alone: number[]; abuse: number[] } {
  const out = { alone: [] as number[], abuse: [] as number[] };
  result.latencies.forEach((latency, i) => {
    const due = result.due[i]!;
    const window = switches.findLast((w) => w.at <= due);
    if (window && due - window.at >= guard) out[window.abuse ? 'abuse' : 'alone'].push(latency);
  });
  return out;
}

/** Abuse on and off by turns of this length, in measureInWindows. */
export const WINDOW_MS = 1000;
/** The start of each window left out: answers to requests sent before the switch, and the abusers' first burst. */
const GUARD_MS = 200;

/**
 * After the rounds: the abusers run throughout, stopped (SIGSTOP) and resumed (SIGCONT) every WINDOW_MS, while the
 * partner polls throughout; each answer counts for the window it was due in. Rounds of seconds let a slow spell of
 * the machine land on one condition (in stop 40 the partner alone reached 21.7 ms in one round); windows of a second
 * share such spells between the two.
 */
async function measureInWindows(
  keys: AbuseKeys,
  ours: ServerProcess,
  client: Partner,
  s: AbuseSettings,
  start: number,
  broken: string[],
): Promise<Windowed> {
  const windows = 2 * s.rounds;
  const seconds = (2 * windows * WINDOW_MS) / 1000;
  const pids: number[] = [];
  const common = { url: ours.url, seconds: seconds + 1, connections: s.connections, seed: 2000 };
  const abusers = Promise.all([
    runAbuser({ ...common, mode: 'filter', key: keys.abuser.key }, (pid) => pids.push(pid)),
    runAbuser({ ...common, mode: 'rent', facility: keys.target.facility, size: keys.target.size }, (pid) =>
      pids.push(pid),
    ),
  ]);
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
    result = await client.run(s.rate, seconds, start);
  } finally {
    clearInterval(turns);
    signal('SIGCONT');
  }
  await abusers;
  checkPartner(result, `${keys.target.label}, in windows`, broken);
  const latencies = byWindow(result, switches, GUARD_MS);
  const p99 = (xs: number[]) => round3(percentile(ascending(xs), 99));
  const [alone, abuse] = [p99(latencies.alone), p99(latencies.abuse)];
  return {
    window_ms: WINDOW_MS,
    guard_ms: GUARD_MS,
    windows,
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

/** The values in ascending order, sorted in place. */
const ascending = (xs: number[]) => xs.sort((a, b) => a - b);

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}
const round3 = (x: number) => Math.round(x * 1000) / 1000;

function summarise(conditions: Condition[]): Summary {
  const all = ascending(conditions.flatMap((c) => c.partner.latencies));
  const statuses: Record<string, number> = {};
  for (const c of conditions)
    for (const [st, n] of Object.entries(c.partner.statuses)) statuses[st] = (statuses[st] ?? 0) + n;
  const summary: Summary = {
    partner_requests: all.length,
    p50_ms: round3(percentile(all, 50)),
    p99_ms: round3(percentile(all, 99)),
    max_ms: round3(all.at(-1)!),
    partner_statuses: statuses,
    partner_failed: conditions.reduce((a, c) => a + c.partner.failed, 0),
    core_busy: median(conditions.map((c) => c.core_busy)),
    server_waited: median(conditions.map((c) => c.server_waited)),
    client_delay_p99_ms: round3(median(conditions.map((c) => c.partner.client_delay.p99_ms))),
    client_delay_max_ms: round3(Math.max(...conditions.map((c) => c.partner.client_delay.max_ms))),
    rounds: conditions.map((c) => {
      const sorted = ascending([...c.partner.latencies]);
      return {
        p50_ms: round3(percentile(sorted, 50)),
        p99_ms: round3(percentile(sorted, 99)),
        core_busy: c.core_busy,
        server_waited: c.server_waited,
      };
    }),
  };
  if (conditions[0]?.abusers) {
    summary.abusers = conditions[0].abusers.map((a, j) => {
      const merged: Record<string, number> = {};
      for (const c of conditions)
        for (const [st, n] of Object.entries(c.abusers![j]!.statuses)) merged[st] = (merged[st] ?? 0) + n;
      return { mode: a.mode, rps: Math.round(median(conditions.map((c) => c.abusers![j]!.rps))), statuses: merged };
    });
  }
  return summary;
}
