// The abuse scenario: a partner polls at a fixed rate while each pattern of abuse (abuser.ts, under SCHED_IDLE) is
// switched on and off by turns of a second; its p99 with abuse over its p99 without, and ours' RSS through each.
import { spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import type { BenchRun } from './context.ts';
import { createKeys } from './data.ts';
import { FIELD_FULL, FIELD_QUICK, type FieldWorld } from './field-mix.ts';
import { startWorld } from './field.ts';
import { median, ratio, resetPeakRss, rssMb } from './measure.ts';
import { table } from './report.ts';
import { printed, REPO, type ServerProcess } from './servers.ts';
import type { AbuserConfig, AbuserRun } from './abuser.ts';

const PATTERNS = ['filter + rent', 'rotate', 'crawl', 'upload'] as const;
type Pattern = (typeof PATTERNS)[number];
const WINDOW_MS = 1000;
/** The start of each window left out: answers to requests sent before the switch, and the abusers' first burst. */
const GUARD_MS = 200;
// SCHED_IDLE: the abusers share the load core with the partner's client, which in the field is another machine.
const IDLE = spawnSync('chrt', ['--version']).status === 0;

/** One client process (SCHED_IDLE unless `idle` is false; chrt execs node: the pid is the client's), and its result. */
function runClient(config: Omit<AbuserConfig, 'seed'> & { seed?: number }, idle = true) {
  const node = [process.execPath, '--import', 'tsx', join(REPO, 'bench', 'lib', 'abuser.ts')];
  const argv = [...(idle && IDLE ? ['chrt', '-i', '0'] : []), ...node, JSON.stringify({ seed: 1, ...config })];
  const child = spawn(argv[0]!, argv.slice(1), { stdio: ['ignore', 'pipe', 'inherit'] });
  const done = printed(child, config.mode, /(\{"sent".*\})\n/, 'stdout').then(([l]) => JSON.parse(l!) as AbuserRun);
  done.catch(() => undefined); // awaited later; a client that dies early is reported there
  return { child, done, mode: config.mode };
}

const p99 = (xs: number[]) => xs.sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * 0.99))] ?? NaN;
const round3 = (x: number) => Math.round(x * 1000) / 1000;

/** The abusers of a pattern against `facility`, whose key `key` is, for `seconds`. */
function abusersOf(
  pattern: Pattern,
  w: FieldWorld,
  ours: ServerProcess,
  facility: number,
  key: string,
  seconds: number,
) {
  const c = { url: ours.url, seconds, connections: 8, seed: 1000 };
  const { rotated, crawled, db } = w;
  const all: Record<Pattern, AbuserConfig[]> = {
    'filter + rent': [
      { ...c, mode: 'filter', key },
      { ...c, mode: 'rent', facility, size: db.sizes[facility] },
    ],
    rotate: [{ ...c, mode: 'rotate', connections: 1, rate: 6, facilities: [...rotated], size: db.sizes[rotated[0]!] }],
    crawl: [{ ...c, mode: 'crawl', facility: crawled, size: db.sizes[crawled] }],
    upload: [{ ...c, mode: 'upload', url: ours.panelUrl!, connections: 4 }],
  };
  return all[pattern];
}

/** The partner beside each pattern, on the key of a mid-size facility and of the large one (quick: the large one). */
export async function abuse(r: BenchRun) {
  const { db, ours, world } = await startWorld(r.quick ? FIELD_QUICK : FIELD_FULL, true, r);
  const ordinary = world.keyed.filter((f) => f !== world.large);
  const biggest = ordinary.reduce((a, b) => (db.sizes[b]! > db.sizes[a]! ? b : a));
  const seconds = r.quick ? 4 : 16;
  const entries = [];
  for (const facility of r.quick ? [world.large] : [biggest, world.large]) {
    const label = `key of a ${db.sizes[facility]!.toLocaleString('en-US')}-listing facility`;
    // Default limits: the abuser's key on the target; the partner's there and on three others, under the limit.
    const others = world.keyed.filter((f) => f !== facility && f !== world.large).slice(0, 3);
    const [abuser, ...partner] = createKeys(
      db,
      [facility, facility, ...others].map((f) => ({ facility: f })),
    );
    const keys = partner.map((k) => ({ key: k.key, facility: k.facility, size: db.sizes[k.facility]! }));
    for (const pattern of PATTERNS) {
      const rssBefore = rssMb(ours.pid);
      const peakSince = resetPeakRss(ours.pid) ? 'pattern' : 'start';
      let crawlPass: Record<string, number> | undefined;
      if (pattern === 'crawl' && r.full) {
        // Every page once before the windows, however long it takes: memory is judged through all of them.
        const [config] = abusersOf(pattern, world, ours, facility, abuser!.key, 0);
        const pass = await runClient({ ...config!, once: true }).done;
        crawlPass = { pages: pass.sent, seconds: Math.round(pass.seconds), ...pass.statuses };
      }
      // They outlast the partner (its start-up and warm-up too), and are ended when it is done.
      const abusers = abusersOf(pattern, world, ours, facility, abuser!.key, seconds + 30).map((c) => runClient(c));
      const signal = (name: 'SIGSTOP' | 'SIGCONT') => abusers.forEach((a) => a.child.kill(name));
      await Promise.all(abusers.map((a) => printed(a.child, a.mode, /\{"ready":true\}/, 'stdout')));
      signal('SIGSTOP');
      const client = runClient({ url: ours.url, mode: 'partner', keys, rate: 300, seconds, connections: 1 }, false);
      await printed(client.child, 'partner', /\{"warm":true\}/, 'stdout');
      const switches = [{ at: performance.timeOrigin + performance.now(), abuse: false }];
      const turns = setInterval(() => {
        const on = !switches.at(-1)!.abuse;
        signal(on ? 'SIGCONT' : 'SIGSTOP');
        switches.push({ at: performance.timeOrigin + performance.now(), abuse: on });
      }, WINDOW_MS);
      const result = await client.done.finally(() => clearInterval(turns));
      signal('SIGCONT');
      abusers.forEach((a) => a.child.kill('SIGTERM'));
      const got = await Promise.all(abusers.map((a) => a.done));
      const bad = Object.keys(result.statuses).filter((s) => !/^[23]\d\d$/.test(s));
      if (bad.length > 0)
        r.broken.push(`abuse (${label}, ${pattern}): the partner got ${JSON.stringify(result.statuses)}`);
      const windows = { alone: [] as number[], abuse: [] as number[] };
      result.latencies!.forEach((ms, i) => {
        const w = switches.findLast((s) => s.at <= result.due![i]!);
        if (w && result.due![i]! - w.at >= GUARD_MS) windows[w.abuse ? 'abuse' : 'alone'].push(ms);
      });
      const [alone, abused] = [round3(p99(windows.alone)), round3(p99(windows.abuse))];
      entries.push({
        target: label,
        pattern,
        partner_requests: result.latencies!.length,
        partner_p50_ms: round3(median(result.latencies!)),
        p99_alone_ms: alone,
        p99_with_ms: abused,
        ratio_p99: ratio(abused, alone),
        rss: {
          before_mb: Math.round(rssBefore),
          peak_mb: Math.round(rssMb(ours.pid, 'VmHWM')),
          after_mb: Math.round(rssMb(ours.pid)),
          peak_since: peakSince,
        },
        // One line each in the results: what each abuser sent, then its answers by status.
        abusers: got.map((a, i) => ({ mode: abusers[i]!.mode, sent: a.sent, ...a.statuses })),
        crawl_pass: crawlPass,
      });
    }
  }
  await ours.stop();
  const crawls = entries.filter((e) => e.crawl_pass).map((e) => `crawl pass: ${JSON.stringify(e.crawl_pass)}\n`);
  r.out(
    `\nabuse (the partner at 300 req/s on 4 keys with the default limit; each pattern on and off by turns of ${WINDOW_MS} ms ` +
      `for ${seconds} s, the first ${GUARD_MS} ms of each left out; rotate: 6 pages/s over ${world.rotated.length} large ` +
      `facilities; crawl: every page of a large facility with long fields; upload: 4 x 150 MB to the panel's /login):\n` +
      table(
        ['abused key', 'pattern', 'p99 alone ms', 'p99 with ms', 'ratio', 'ours RSS MB: before -> peak, after'],
        entries.map((e) => {
          const { before_mb, peak_mb, after_mb, peak_since } = e.rss;
          const rss = `${before_mb} -> ${peak_mb}${peak_since === 'start' ? ' (since start)' : ''}, ${after_mb}`;
          return [e.target, e.pattern, e.p99_alone_ms, e.p99_with_ms, e.ratio_p99, rss];
        }),
      ) +
      crawls.join(''),
  );
  return entries;
}
