// `listings snapshot` options: an unknown facility refused, the database from LISTINGS_DB, usage errors exit 2, and
// each subcommand's help shows an example.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN } from './helpers/fixture.ts';
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

  it('warns on stderr when rent links would point at this machine, and not with a public --public-url', async () => {
    const args = (out: string, ...more: string[]) => [
      'snapshot',
      'export',
      '--out',
      join(snap.dir, out),
      '--signing-key',
      snap.keyFile,
      ...more,
    ];
    const local = await run(args('loopback-out'), { LISTINGS_DB: snap.dbFile });
    expect(local.status).toBe(0);
    expect(local.stderr.trimEnd().split('\n').at(-1)).toBe(
      'warning: the rent links of ber-1, krk-1, wro-1 and 1 more (no rental_page_url template) point at ' +
        'http://127.0.0.1:8787, which only this machine can open: pass --public-url (or set PUBLIC_URL) to the ' +
        "server's public address",
    );
    const one = await run(args('loopback-one', '--facility', 'zrh-1', '--public-url', 'http://localhost:9000'), {
      LISTINGS_DB: snap.dbFile,
    });
    expect(one.stderr).toMatch(
      /^warning: the rent links of zrh-1 \(no rental_page_url template\) point at http:\/\/localhost:9000,/m,
    );
    const published = await run(
      ['snapshot', 'publish', '--to', join(snap.dir, 'public-out'), '--signing-key', snap.keyFile],
      { LISTINGS_DB: snap.dbFile, PUBLIC_URL: 'https://listings.example.com' },
    );
    expect(published.status).toBe(0);
    expect(published.stderr).not.toMatch(/warning/);
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

describe('snapshot folders named by --out, --to and --state', () => {
  /** Exit `status` with one line on stderr that matches `pattern`. */
  const oneLine = (r: { status: number; stderr: string }, status: number, pattern: RegExp) => {
    expect(r.stderr.trim().split('\n'), r.stderr).toHaveLength(1);
    expect(r.stderr).toMatch(pattern);
    expect(r.status).toBe(status);
  };
  /** A file where the commands expect a folder. */
  const aFile = () => {
    const file = join(snap.dir, 'data.json');
    writeFileSync(file, '{}\n');
    return file;
  };

  it('refuses an empty --out or an s3:// one (exit 2) and writes nothing where it runs', () => {
    const cwd = join(snap.dir, 'cwd');
    mkdirSync(cwd);
    // The real binary in a folder of its own: an empty --out would be that folder.
    const inCwd = (args: string[]) => {
      const r = spawnSync(process.execPath, [BIN, ...args], { cwd, encoding: 'utf8', timeout: 60_000 });
      return { status: r.status ?? -1, stderr: r.stderr };
    };
    oneLine(inCwd(snap.exportArgs('')), 2, /^error: --out : expected a folder path: it is empty$/m);
    oneLine(inCwd(snap.exportArgs('s3://listings/x')), 2, /--out s3:\/\/listings\/x: .*snapshot publish --to/);
    oneLine(inCwd(['snapshot', 'keygen', '--out', '']), 2, /^error: --out : expected a folder path: it is empty$/m);
    expect(readdirSync(cwd)).toEqual([]);
  });

  it('refuses a file where the output folder should be, in one line (exit 1), and leaves the file as it was', async () => {
    const file = aFile();
    oneLine(await run(snap.exportArgs(file)), 1, /^error: \S+data\.json is a file, not a folder\n$/);
    oneLine(await run(snap.exportArgs(join(file, 'out'))), 1, /^error: \S+data\.json\/out: a file is in its path\n$/);
    const publish = ['snapshot', 'publish', '--db', snap.dbFile, '--to', file, '--signing-key', snap.keyFile];
    oneLine(await run(publish), 1, /^error: \S+data\.json is a file, not a folder\n$/);
    expect(readFileSync(file, 'utf8')).toBe('{}\n');
  });

  it("refuses a file as the follower's --state, in one line (exit 1)", async () => {
    const file = aFile();
    const follow = (state: string, ...extra: string[]) =>
      run(['snapshot', 'follow', snap.OUT(), '--keys', join(snap.OUT(), 'keys.json'), '--state', state, ...extra]);
    oneLine(await follow(file), 1, /^error: \S+data\.json is a file, not a folder\n$/);
    oneLine(await follow(file, '--watch'), 1, /^error: \S+data\.json is a file, not a folder\n$/);
    oneLine(await follow(join(file, 'mirror')), 1, /^error: \S+data\.json\/mirror: a file is in its path\n$/);
    expect(readFileSync(file, 'utf8')).toBe('{}\n');
  });

  it('refuses --interval without --watch as options that do not go together (exit 2), before anything is read', async () => {
    const state = join(snap.dir, 'interval-mirror');
    const r = await run([
      'snapshot',
      'follow',
      snap.OUT(),
      '--keys',
      join(snap.OUT(), 'keys.json'),
      '--state',
      state,
      '--interval',
      '5',
    ]);
    oneLine(r, 2, /^error: --interval applies with --watch only/);
    expect(existsSync(state)).toBe(false);
  });

  it('leaves no folder behind when a withdraw into a new one has nothing to withdraw', async () => {
    const to = join(snap.dir, 'new', 'x3');
    const r = await run(['snapshot', 'withdraw', 'wro-1', '--to', to, '--signing-key', snap.keyFile], {
      LISTINGS_DB: snap.dbFile,
    });
    oneLine(r, 1, /has no snapshot on .*x3: nothing to withdraw/);
    expect(existsSync(join(snap.dir, 'new'))).toBe(false);
  });
});
