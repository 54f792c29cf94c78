import { spawnSync } from 'node:child_process';
import { expect, it } from 'vitest';

it("lowers every thread but the event loop's, once libuv's pool exists, so off-loop work yields on a busy core", () => {
  // In a process of its own: this test's worker keeps its threads' priority.
  const script = `
      import { readdirSync, readFileSync } from 'node:fs';
      import { yieldHelperThreads } from './server/http/transport/helper-threads.ts';
      const nice = (tid) => Number(readFileSync('/proc/self/task/' + tid + '/stat', 'utf8').split(') ')[1].split(' ')[16]);
      const started = nice(process.pid);
      await yieldHelperThreads(started + 7);
      const tids = readdirSync('/proc/self/task').map(Number);
      console.log(JSON.stringify({ started, main: nice(process.pid), others: tids.filter((t) => t !== process.pid).map(nice) }));`;
  const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    encoding: 'utf8',
  });
  expect(run.status, run.stderr).toBe(0);
  // The run may itself be niced (a loaded machine's test run): the helpers go 7 below wherever the process started.
  const { started, main, others } = JSON.parse(run.stdout) as { started: number; main: number; others: number[] };
  expect(main).toBe(started);
  // libuv's pool alone is 4 threads.
  expect(others.length).toBeGreaterThanOrEqual(4);
  expect(others.every((n) => n === Math.min(started + 7, 19))).toBe(true);
});
