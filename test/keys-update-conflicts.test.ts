// `listings keys update` with options that contradict each other (`--allowed-origin` and `--any-origin`) is a usage
// error (exit 2) naming both, and changes nothing: the key keeps its origins, and no audit row is written.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EXIT_USAGE } from '../cli/program.ts';
import { openStore } from '../server/store/store.ts';
import { cliInProcess, demoDb, tempDir } from './helpers/fixture.ts';

let file: string;
let cleanup: () => void;
beforeEach(() => {
  const made = tempDir();
  cleanup = made.cleanup;
  const demo = demoDb(made.dir);
  demo.db.close();
  file = demo.file;
});
afterEach(() => cleanup());

describe('keys update --allowed-origin with --any-origin', () => {
  it.each([
    ['--allowed-origin first', ['--allowed-origin', 'https://other.example', '--any-origin']],
    ['--any-origin first', ['--any-origin', '--allowed-origin', 'https://other.example', '--json']],
  ])('%s: exits 2 naming both options, and the key keeps its origins', async (_, args) => {
    const made = await cliInProcess(file, [
      'keys',
      'create',
      '--facility',
      'wro-1',
      '--allowed-origin',
      'https://odra.example',
      '--json',
    ]);
    const { id } = JSON.parse(made.stdout) as { id: string };
    const run = await cliInProcess(file, ['keys', 'update', id, ...args]);
    expect(run.code).toBe(EXIT_USAGE);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('--allowed-origin');
    expect(run.stderr).toContain('--any-origin');
    const store = await openStore(file);
    try {
      const key = (await store.listKeys('wro-1')).find((k) => k.id === id);
      expect(key?.allowed_origins).toEqual(['https://odra.example']);
      expect(await store.listAudit({ action: 'key.update' })).toHaveLength(0);
    } finally {
      await store.close();
    }
  });
});
