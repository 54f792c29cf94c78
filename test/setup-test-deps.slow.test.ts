// npm test's pretest on a machine without the programs stops in the first second, before any suite starts.
import { expect, it } from 'vitest';
import { tempDir } from './helpers/fixture.ts';
import { bareMachine, runSetup } from './helpers/setup-script.ts';

it('exits within a second with a line per missing program', async () => {
  const { dir, cleanup } = tempDir('listings-setup-');
  try {
    const run = await runSetup(bareMachine(dir));
    expect(run.status).toBe(1);
    expect(run.lines).toHaveLength(11);
    expect(run.ms).toBeLessThan(1000);
  } finally {
    cleanup();
  }
});
