// `listings snapshot` options: an unknown facility refused, the database from LISTINGS_DB, usage errors exit 2, and
// each subcommand's help shows an example.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runInProcess as run, useExportedSnapshots } from './helpers/snapshot-export.ts';

const snap = useExportedSnapshots();

describe('snapshot export options', () => {
  it('refuses an unknown facility (exit 1) and reads the database from LISTINGS_DB', async () => {
    const unknown = await run(
      ['snapshot', 'export', '--out', join(snap.dir, 'x'), '--signing-key', snap.keyFile, '--facility', 'nope-1'],
      { LISTINGS_DB: snap.dbFile },
    );
    expect(unknown.status).toBe(1);
    expect(unknown.stderr).toContain('unknown facility');
    const viaEnv = await run(
      [
        'snapshot',
        'export',
        '--out',
        join(snap.dir, 'env-out'),
        '--signing-key',
        snap.keyFile,
        '--facility',
        'zrh-1',
        '--json',
      ],
      { LISTINGS_DB: snap.dbFile },
    );
    expect(viaEnv.status).toBe(0);
    expect(JSON.parse(viaEnv.stdout)).toMatchObject({ facilities: 1, kid: snap.kid, results: [{ id: 'zrh-1' }] });
    expect(viaEnv.stderr).toMatch(/^zrh-1: version \d+, 3 listings/);
  });

  it.each([
    [['snapshot', 'export', '--out', 'x', '--signing-key', 'k', '--ttl', '7x']],
    [['snapshot', 'export', '--out', 'x', '--signing-key', 'k', '--ttl', '0d']],
    [['snapshot', 'export', '--out', 'x', '--signing-key', 'k', '--facility', 'Not_An_Id']],
    [['snapshot', 'export', '--out', 'x']],
    [['snapshot', 'verify', 'x', '--keys', 'k', '--min-version', '0']],
    [['snapshot', 'verify', 'x']],
  ])('usage error exits 2: %j', async (args) => {
    expect((await run(args)).status).toBe(2);
  });

  it.each(['keygen', 'export', 'verify'])('snapshot %s --help shows an example', async (sub) => {
    const r = await run(['snapshot', sub, '--help']);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/Examples?:\n\s+\$ listings snapshot /);
  });
});
