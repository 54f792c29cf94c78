// The abuse scenario's patterns: which abusers (abuser.ts) each runs, with what, and the abusers' processes.
import { spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import type { AbuserConfig } from './abuser.ts';
import type { FieldWorld } from './field-mix.ts';
import { BENCH_DIST, type ServerProcess } from './servers.ts';

/** The patterns of abuse, each measured beside the partner on its own, in this order. */
export const PATTERNS = ['filter + rent', 'rotate', 'crawl', 'upload'] as const;
export type Pattern = (typeof PATTERNS)[number];
/** rotate: 6 pages a second over 3 addresses, 2 a second each: far under the page limit (5 a second, burst 60). */
export const ROTATE = { rate: 6, addresses: 3 };
/** upload: four concurrent bodies of 150 MB to the panel's /login, again and again. */
export const UPLOAD = { connections: 4, bytes: 150 * 1024 * 1024 };

/** What a pattern aims at: the abused facility (filter + rent), the abusive key, and ours (with its panel). */
export interface PatternTarget {
  world: FieldWorld;
  facility: number;
  size: number;
  abuserKey: string;
  ours: ServerProcess;
}

/** The abusers of a pattern for `seconds`, with settings in common (url, connections, seed) unless a pattern's own. */
export function abusersOf(
  pattern: Pattern,
  t: PatternTarget,
  connections: number,
  seconds: number,
  seed: number,
): AbuserConfig[] {
  const { world } = t;
  const common = { url: t.ours.url, seconds, connections, seed };
  const large = world.db.sizes[world.rotated[0]!]!;
  const own: (Partial<AbuserConfig> & Pick<AbuserConfig, 'mode'>)[] =
    pattern === 'filter + rent'
      ? [
          { mode: 'filter', key: t.abuserKey },
          { mode: 'rent', facility: t.facility, size: t.size },
        ]
      : pattern === 'rotate'
        ? [{ mode: 'rotate', connections: 1, facilities: [...world.rotated], size: large, ...ROTATE }]
        : pattern === 'crawl'
          ? [{ mode: 'crawl', facility: world.crawled, size: world.db.sizes[world.crawled]! }]
          : [{ mode: 'upload', url: t.ours.panelUrl!, ...UPLOAD }];
  return own.map((o) => ({ ...common, ...o }));
}

export type AbuserRun = { sent: number; statuses: Record<string, number>; seconds: number };

/** One abuser process (dist/bench/abuser.mjs) for `seconds`; resolves with what it sent and got. */
export function runAbuser(config: AbuserConfig, spawned?: (pid: number) => void): Promise<AbuserRun> {
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
      if (code !== 0) return reject(new Error(`the abuser (${config.mode}) exited with ${code}`));
      resolve(JSON.parse(stdout) as AbuserRun);
    });
  });
}

/** Whether util-linux's chrt is here to run the abusers under SCHED_IDLE. */
const IDLE = spawnSync('chrt', ['--version']).status === 0;
