// The follower as an aggregator runs it: `listings snapshot follow` from zero against a published target, then again
// after one facility changed; wall time, peak RSS (the child's own, printed at its exit) and files read.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { REPO } from './servers.ts';

/** Loaded before the CLI: prints the process's peak resident set (KiB) to stderr as it exits. */
const PEAK_RSS = `data:text/javascript,process.on('exit',()=>process.stderr.write('peak_rss_kib='+process.resourceUsage().maxRSS+'\\n'))`;

export interface FollowRun {
  seconds: number;
  peak_rss_mb: number;
  files_read: number;
  fetched: number;
  mode: string;
}

/** One `snapshot follow --json` of `base` into `state`, on `core` when pinned. */
export function followOnce(base: string, state: string, core: string | undefined): Promise<FollowRun> {
  const argv = ['--import', PEAK_RSS, join(REPO, 'bin', 'listings.js'), 'snapshot', 'follow', base];
  argv.push('--keys', `${base}/keys.json`, '--state', state, '--json');
  const [cmd, rest] = core ? ['taskset', ['-c', core, process.execPath, ...argv]] : [process.execPath, argv];
  const began = performance.now();
  const child = spawn(cmd, rest, { cwd: REPO });
  let [stdout, stderr] = ['', ''];
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve, reject) =>
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`snapshot follow exited with ${code}: ${stderr}`));
      const summary = JSON.parse(stdout) as { mode: string; fetched: number; reads: string[] };
      const kib = Number(/peak_rss_kib=(\d+)/.exec(stderr)?.[1] ?? NaN);
      resolve({
        seconds: Math.round(performance.now() - began) / 1000,
        peak_rss_mb: Math.round(kib / 102.4) / 10,
        files_read: summary.reads.length,
        fetched: summary.fetched,
        mode: summary.mode,
      });
    }),
  );
}
