// What keepTickShape() buys, timed: `process.nextTick` after a full GC with no tick pending, with and without it.
// In a process of its own (an exposed gc); the margin is a quarter of the 8x seen on a quiet machine.
import { spawnSync } from 'node:child_process';
import { expect, it } from 'vitest';

/** Nanoseconds per tick after the GC: the best of five runs of 200,000 ticks, so a loaded machine's slices count less. */
function nsPerTick(keep: boolean): number {
  const script = `
      import { keepTickShape } from './server/http/transport/tick-shape.ts';
      if (${keep}) keepTickShape();
      const ticks = (n) => new Promise((done) => { let i = 0; const step = () => (++i >= n ? done() : process.nextTick(step)); step(); });
      await ticks(200);
      await new Promise((r) => setImmediate(r));
      gc();
      gc();
      let best = Infinity;
      for (let run = 0; run < 5; run++) {
        const started = process.hrtime.bigint();
        await ticks(200_000);
        best = Math.min(best, Number(process.hrtime.bigint() - started) / 200_000);
        await new Promise((r) => setImmediate(r));
      }
      console.log(best);`;
  const run = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', '--input-type=module', '-e', script], {
    encoding: 'utf8',
  });
  expect(run.status, run.stderr).toBe(0);
  return Number(run.stdout.trim());
}

it('keeps process.nextTick fast after a full GC with no tick pending', () => {
  const [kept, dropped] = [nsPerTick(true), nsPerTick(false)];
  expect(dropped / kept, `${dropped.toFixed(0)} ns a tick without it, ${kept.toFixed(0)} ns with it`).toBeGreaterThan(
    2,
  );
});
