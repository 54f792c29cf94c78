// `listings keys update KEY` without a change to make is a usage error (exit 2) naming the options it takes, and
// writes nothing: no audit row for a change that was none.
import { describe, expect, it } from 'vitest';
import { cliInProcess, demoDb, tempDir } from './helpers/fixture.ts';
import { openStore } from '../server/store/store.ts';

describe('keys update with no change', () => {
  it('exits 2 naming its options, and writes no audit row', async () => {
    const { dir, cleanup } = tempDir();
    try {
      const { file, db } = demoDb(dir);
      db.close();
      const made = await cliInProcess(file, ['keys', 'create', '--facility', 'wro-1', '--json']);
      const { id } = JSON.parse(made.stdout) as { id: string };
      for (const args of [[], ['--json']]) {
        const run = await cliInProcess(file, ['keys', 'update', id, ...args]);
        expect(run.code).toBe(2);
        for (const option of ['--label', '--ref', '--rate', '--burst', '--allowed-origin', '--any-origin'])
          expect(run.stderr).toContain(option);
        expect(run.stderr.trim().split('\n')).toHaveLength(1);
      }
      const store = await openStore(file);
      try {
        expect((await store.listAudit({ action: 'key.update' })).length).toBe(0);
      } finally {
        await store.close();
      }
      expect((await cliInProcess(file, ['keys', 'update', id, '--label', 'x'])).code).toBe(0);
    } finally {
      cleanup();
    }
  });
});
