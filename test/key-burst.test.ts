// A key's burst is decimal digits only, by one rule for the CLI's --burst and the panel's form: `0x10` and `1e3`,
// which Number() would read as 16 and 1000, are refused with the rule and nothing is made.
import { describe, expect, it } from 'vitest';
import { readKeyForm } from '../shared/key-limits.ts';
import { cliInProcess, demoDb, tempDir } from './helpers/fixture.ts';
import { usePanel } from './helpers/panel.ts';

const panel = usePanel();

describe('a burst', () => {
  it('is read from decimal digits only by the shared rule', () => {
    for (const burst of ['0x10', '1e3', '0b11', '+5', '5.0', '1_000'])
      expect([burst, readKeyForm({ label: '', origins: '', rate: '', burst }).ok]).toEqual([burst, false]);
    expect(readKeyForm({ label: '', origins: '', rate: '', burst: ' 0016 ' })).toMatchObject({
      ok: true,
      limits: { burst: 16 },
    });
  });

  it('in hex or exponent form is refused by the CLI (exit 2) and by the panel (400), nothing made', async () => {
    const { dir, cleanup } = tempDir();
    try {
      const { file, db } = demoDb(dir);
      db.close();
      for (const burst of ['0x10', '1e3'])
        expect((await cliInProcess(file, ['keys', 'create', '--facility', 'wro-1', '--burst', burst])).code).toBe(2);
      expect((await cliInProcess(file, ['keys', 'list', '--json'])).stdout.trim()).toBe('[]');
    } finally {
      cleanup();
    }
    const s = await panel.client.session();
    for (const burst of ['0x10', '1e3'])
      expect((await s.as('POST', '/facilities/wro-1/keys', { label: 'b', burst })).status).toBe(400);
    expect(await panel.store.listKeys('wro-1')).toEqual([]);
  });
});
