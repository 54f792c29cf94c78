import { spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';

/**
 * How V8 records the four property definitions of `process.nextTick`'s tick object after ticks, a full GC with no tick
 * pending, and ticks again: in a process of its own (natives syntax, an exposed gc), keepTickShape() called first or not.
 */
function nextTickDefineSites(keep: boolean): { mono: number; mega: number } {
  const script = `
      import { keepTickShape } from './server/http/transport/tick-shape.ts';
      if (${keep}) keepTickShape();
      const ticks = (n) => new Promise((done) => { let i = 0; const step = () => (++i >= n ? done() : process.nextTick(step)); step(); });
      await ticks(200);
      await new Promise((r) => setImmediate(r));
      gc();
      gc();
      await ticks(20);
      %DebugPrint(process.nextTick);`;
  // V8 prints through C's stdio, which loses output on the non-blocking pipe Node makes of stdout: a file keeps it all.
  const dir = mkdtempSync(join(tmpdir(), 'tick-shape-'));
  const out = openSync(join(dir, 'out.txt'), 'w');
  try {
    const run = spawnSync(
      process.execPath,
      ['--allow-natives-syntax', '--expose-gc', '--import', 'tsx', '--input-type=module', '-e', script],
      { encoding: 'utf8', stdio: ['ignore', out, 'pipe'] },
    );
    expect(run.status, run.stderr).toBe(0);
    const printed = readFileSync(join(dir, 'out.txt'), 'utf8');
    const count = (state: string) => printed.split(`DefineKeyedOwnPropertyInLiteral ${state}`).length - 1;
    return { mono: count('MONOMORPHIC'), mega: count('MEGAMORPHIC') };
  } finally {
    closeSync(out);
    rmSync(dir, { recursive: true, force: true });
  }
}

it("keeps the tick object's four property definitions monomorphic across a full GC with no tick pending", () => {
  expect(nextTickDefineSites(true)).toEqual({ mono: 4, mega: 0 });
});

it('is needed: without it, that GC leaves the definitions megamorphic for the life of the process', () => {
  expect(nextTickDefineSites(false).mega).toBeGreaterThan(0);
});
