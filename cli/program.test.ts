// The `listings` CLI, in-process through runCli and as the real binary: data, keys, exit codes, help and the database path.
import Database from 'better-sqlite3';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { bufferIo, cli, DEMO_DATA, demoJson, dbPathEachTest, writeJson } from '../test/helpers/fixture.ts';
import { MIGRATIONS, runMigration, SCHEMA_VERSION } from '../server/store/migrations.ts';
import { createProgram, runCli } from './program.ts';
import type { Command } from 'commander';

let dir: string;
let dbFile: string;
dbPathEachTest((t) => ({ dir, file: dbFile } = t));

async function run(args: string[], env: NodeJS.ProcessEnv = { LISTINGS_DB: dbFile }) {
  const io = bufferIo(env);
  const code = await runCli(args, io);
  return { code, stdout: io.stdout(), stderr: io.stderr() };
}

const KEY = /^svc_live_[A-Za-z0-9]{32}$/;

describe('import, two keys, one revoked, listed', () => {
  it('works in-process', async () => {
    expect((await run(['import', DEMO_DATA])).code).toBe(0);
    const first = await run(['keys', 'create', '--facility', 'wro-1', '--label', 'broker', '--json']);
    expect(first.code).toBe(0);
    const a = JSON.parse(first.stdout);
    expect(a).toMatchObject({ facility_id: 'wro-1', label: 'broker', revoked_at: null });
    expect(a.key).toMatch(KEY);

    const second = await run(['keys', 'create', '--facility', 'wro-1']);
    expect(second.code).toBe(0);
    const keyB = second.stdout.trim();
    expect(keyB).toMatch(KEY); // the key alone on stdout, the notice on stderr
    const idB = /key_[A-Za-z0-9]{16}/.exec(second.stderr)![0];

    const revoke = await run(['keys', 'revoke', a.id, '--json']);
    expect(revoke.code).toBe(0);
    expect(JSON.parse(revoke.stdout)).toMatchObject({ id: a.id, revoked_at: expect.any(String) });

    const list = await run(['keys', 'list', '--json']);
    expect(list.code).toBe(0);
    const rows = JSON.parse(list.stdout);
    expect(rows.map((r: { id: string; revoked_at: string | null }) => [r.id, r.revoked_at !== null])).toEqual([
      [a.id, true],
      [idB, false],
    ]);
    expect(rows[1]).toMatchObject({ facility_id: 'wro-1', hint: keyB.slice(-4), last_used_at: null });
    expect(list.stdout).not.toContain(a.key);
    expect(list.stdout).not.toContain(keyB);

    const text = await run(['keys', 'list', '--facility', 'wro-1']);
    const lines = text.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(/^ID\s+FACILITY_ID\s+LABEL\s+REF\s+HINT\s+CREATED_AT\s+LAST_USED_AT\s+REVOKED_AT/);
    expect(lines[1]).toContain(a.id);
    expect(lines[1]).toContain(rows[0].revoked_at);
    expect(lines[2]).toContain(idB);
    expect(text.stdout).not.toContain(keyB);
    expect(JSON.parse((await run(['keys', 'list', '--facility', 'ber-1', '--json'])).stdout)).toEqual([]);
  });

  it('works with the real binary, --db and LISTINGS_DB alike', () => {
    const env = { LISTINGS_DB: dbFile };
    expect(cli(['import', DEMO_DATA, '--json'], { env }).status).toBe(0);
    const a = cli(['--db', dbFile, 'keys', 'create', '--facility', 'ber-1', '--label', 'one']);
    const b = cli(['keys', 'create', '--facility', 'ber-1', '--label', 'two', '--json'], { env });
    expect([a.status, b.status]).toEqual([0, 0]);
    expect(a.stdout.trim()).toMatch(KEY);
    const idA = /key_[A-Za-z0-9]{16}/.exec(a.stderr)![0];
    const revoke = cli(['keys', 'revoke', idA, '--db', dbFile]);
    expect(revoke.status).toBe(0);
    const list = cli(['keys', 'list', '--json'], { env });
    expect(list.status).toBe(0);
    expect(
      JSON.parse(list.stdout).map((r: { label: string; revoked_at: string | null }) => [
        r.label,
        r.revoked_at !== null,
      ]),
    ).toEqual([
      ['one', true],
      ['two', false],
    ]);
    expect(list.stdout).not.toContain(a.stdout.trim());
    expect(list.stdout).not.toContain(JSON.parse(b.stdout).key);
  });
});

describe('a label in characters', () => {
  it('takes 200 emoji as 200 characters and refuses 201', async () => {
    expect((await run(['import', DEMO_DATA])).code).toBe(0);
    const made = await run(['keys', 'create', '--facility', 'wro-1', '--label', '📦'.repeat(200), '--json']);
    expect(made.code).toBe(0);
    expect(JSON.parse(made.stdout).label).toBe('📦'.repeat(200));
    expect((await run(['keys', 'create', '--facility', 'wro-1', '--label', '📦'.repeat(201)])).code).toBe(2);
  });
});

describe('exit codes', () => {
  beforeEach(async () => {
    expect((await run(['import', DEMO_DATA])).code).toBe(0);
  });

  it.each([
    ['an unknown facility', ['keys', 'create', '--facility', 'nowhere']],
    ['an unknown key id', ['keys', 'revoke', 'key_AAAAAAAAAAAAAAAA']],
    ['a file that does not exist', ['import', 'no-such-file.json']],
    ['a file that is not JSON', ['import', 'not-json.txt']],
  ])('1 with one line on stderr for bad input: %s', async (_name, args) => {
    writeFileSync(join(dir, 'not-json.txt'), '<svg/>');
    const r = await run(args.map((a) => (a.endsWith('.json') || a.endsWith('.txt') ? join(dir, a) : a)));
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/^error: /);
  });

  it('1 for an invalid import file, naming the path', async () => {
    const data = demoJson();
    data.facilities[1].listings[0].free_units = -1;
    const r = await run(['import', writeJson(dir, 'bad.json', data)]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('facilities[1].listings[0].free_units:');
  });

  it.each([
    ['an unknown option', ['keys', 'list', '--bogus']],
    ['an unknown command', ['frobnicate']],
    ['a missing argument', ['keys', 'revoke']],
    ['a missing file argument', ['import']],
    ['a missing required option', ['keys', 'create']],
    ['a bad --rate value', ['keys', 'create', '--facility', 'wro-1', '--rate', 'fast']],
    ['a bad --burst value', ['keys', 'create', '--facility', 'wro-1', '--burst', '0']],
    [
      'a bad --allowed-origin value',
      ['keys', 'create', '--facility', 'wro-1', '--allowed-origin', 'https://a.example/path'],
    ],
    ['a wildcard --allowed-origin', ['keys', 'create', '--facility', 'wro-1', '--allowed-origin', 'https://*.example']],
  ])('2 for a usage error: %s', async (_name, args) => {
    const r = await run(args);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: /);
    expect(JSON.parse((await run(['keys', 'list', '--json'])).stdout)).toEqual([]);
  });

  it.each([
    ['the root', []],
    ['db', ['db']],
    ['db migrate', ['db', 'migrate', '--bogus']],
    ['import', ['import', 'a.json', 'b.json']],
    ['facilities list', ['facilities', 'list', '--jsn']],
    ['keys', ['keys']],
    ['serve', ['serve', '--port', '70000']],
    ['serve', ['serve', '--trust-proxy', 'not-an-address']],
    ['demo', ['demo', '--public-url', 'ftp://example.com']],
    ['snapshot keygen', ['snapshot', 'keygen']],
    ['snapshot export', ['snapshot', 'export', '--out', 'x', '--signing-key', 'k', '--port', 'http']],
    ['snapshot publish', ['snapshot', 'publish', '--to', 'x', '--signing-key', 'k', '--concurrency', '0']],
    ['snapshot publish', ['snapshot', 'publish', '--to', 'ftp://host/x', '--signing-key', 'k']],
    ['snapshot publish', ['snapshot', 'publish', '--to', 'x', '--signing-key', 'k', '--region', 'eu-west-1']],
    ['snapshot verify', ['snapshot', 'verify', 'x', '--keys', 'k', '--min-version', 'one']],
    ['referrals', ['referrals', '--from', '2026-11-30', '--to', '2026-11-01']],
    ['audit', ['audit', '--since', '2026-03-05', '--until', '2026-03-01']],
    ['snapshot withdraw', ['snapshot', 'withdraw', 'Bad ID', '--to', 'x', '--signing-key', 'k']],
    ['operators add', ['operators', 'add', 'bad-email']],
    ['audit', ['audit', '--since', '2026-03-01T12:00:00Z', '--until', '2026-03-01T12:00:00Z']],
  ])('2 for a usage error in %s: %j', async (_group, args) => {
    const r = await run(args.map((a) => (a === 'x' ? join(dir, 'x') : a)));
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^(error: |Usage: )/); // a group without its command shows its help
    expect(existsSync(join(dir, 'x'))).toBe(false);
  });

  it('2 for operators add with a bad email, before the password is asked for', async () => {
    const asked: string[] = [];
    const io = { ...bufferIo({ LISTINGS_DB: dbFile }), readSecret: async (prompt: string) => (asked.push(prompt), '') };
    expect(await runCli(['operators', 'add', 'bad-email'], io)).toBe(2);
    expect(io.stderr()).toMatch(/^error: .*bad-email/);
    expect(asked).toEqual([]);
  });

  it('0 for audit --since and --until the same day: that whole day', async () => {
    const r = await run(['audit', '--since', '2026-03-01', '--until', '2026-03-01', '--json']);
    expect([r.code, JSON.parse(r.stdout)]).toEqual([0, []]);
  });

  it.each([
    ['facilities list', () => ['--db', join(dir, 'none.db'), 'facilities', 'list']],
    ['snapshot export', () => ['snapshot', 'export', '--out', join(dir, 'x'), '--signing-key', join(dir, 'no.pem')]],
    ['snapshot publish', () => ['snapshot', 'publish', '--to', join(dir, 'x'), '--signing-key', join(dir, 'no.pem')]],
    ['snapshot verify', () => ['snapshot', 'verify', join(dir, 'x'), '--keys', join(dir, 'keys.json')]],
  ])('1 with one line for a failure in %s', async (_group, argsOf) => {
    const r = await run(argsOf());
    expect(r.code).toBe(1);
    expect(r.stderr.trimEnd().split('\n')).toEqual([expect.stringMatching(/^error: /)]);
  });

  it('1 for a signing key that is there already (keygen without --force)', async () => {
    expect((await run(['snapshot', 'keygen', '--out', join(dir, 'secrets')])).code).toBe(0);
    const again = await run(['snapshot', 'keygen', '--out', join(dir, 'secrets')]);
    expect([again.code, again.stderr]).toEqual([1, expect.stringMatching(/^error: /)]);
  });

  it.each([
    ['a file', (file: string) => file],
    ['below a file', (file: string) => join(file, 'secrets')],
  ])('1 for keygen --out naming %s, where a folder goes: one line saying so', async (_name, outOf) => {
    const file = join(dir, 'signing-key.pem');
    writeFileSync(file, 'not a folder');
    const r = await run(['snapshot', 'keygen', '--out', outOf(file)]);
    expect(r.code).toBe(1);
    expect(r.stderr.trimEnd().split('\n')).toEqual([
      expect.stringMatching(/^error: \S+(: a file is in its path| is a file, not a folder)/),
    ]);
  });

  it('AWS_REGION in the environment is no mistake on a folder target; --region is', async () => {
    expect((await run(['snapshot', 'keygen', '--out', join(dir, 'secrets')])).code).toBe(0);
    const args = [
      'snapshot',
      'publish',
      '--to',
      join(dir, 'out'),
      '--signing-key',
      join(dir, 'secrets', 'signing-key.pem'),
    ];
    expect((await run(args, { LISTINGS_DB: dbFile, AWS_REGION: 'eu-west-1' })).code).toBe(0);
    expect((await run([...args, '--region', 'eu-west-1'])).code).toBe(2);
  });

  it('the real binary exits with the same codes', () => {
    const env = { LISTINGS_DB: dbFile };
    expect(cli(['keys', 'revoke', 'key_AAAAAAAAAAAAAAAA'], { env }).status).toBe(1);
    expect(cli(['keys', 'create', '--facility', 'wro-1', '--rate', '0/s'], { env }).status).toBe(2);
    const tooFast = cli(['keys', 'create', '--facility', 'wro-1', '--rate', '99999999/s'], { env });
    expect(tooFast.status).toBe(2);
    expect(tooFast.stderr).toContain('200000/s');
  });
});

describe('help', () => {
  const pathsOf = (cmd: Command, prefix: string[] = []): string[][] =>
    cmd.commands
      .filter((c) => c.name() !== 'help')
      .flatMap((c) => [[...prefix, c.name()], ...pathsOf(c, [...prefix, c.name()])]);
  // `snapshot` (the group, not its commands) is left to the snapshot work in progress, which owns cli/commands/snapshot.ts.
  const all = [[], ...pathsOf(createProgram(bufferIo()))].filter((p) => p.join(' ') !== 'snapshot');

  it('covers every command', () => {
    expect(all.map((p) => p.join(' '))).toEqual(
      expect.arrayContaining([
        'db migrate',
        'import',
        'facilities list',
        'keys create',
        'keys list',
        'keys revoke',
        'serve',
      ]),
    );
  });

  it("keys update --help says a limit left out stays the key's, where keys create's says the server's", async () => {
    const helpOf = async (command: string) =>
      (await run(['keys', command, '--help'])).stdout.replace(/\s+/g, ' ').split(' --').slice(1);
    const optionHelp = (lines: string[], name: string) => lines.find((l) => l.startsWith(`${name} `))!;
    const [update, create] = [await helpOf('update'), await helpOf('create')];
    for (const name of ['rate', 'burst']) {
      expect(optionHelp(update, name)).not.toMatch(/\((default: the server default|5 seconds)/);
      expect(optionHelp(update, name)).toMatch(/left out: unchanged/);
    }
    expect(optionHelp(create, 'rate')).toMatch(/\(default: the server default\)/);
  });

  it.each(all.map((p) => [p.join(' ') || '(root)', p]))(
    '%s --help exits 0 and shows an example',
    async (_name, path) => {
      const r = await run([...path, '--help']);
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(/\nExamples?:\n {2}\$ \S/);
    },
  );
});

describe('the database path', () => {
  it('honours LISTINGS_DB, and --db over it', async () => {
    const other = join(dir, 'other', 'b.db');
    expect((await run(['import', DEMO_DATA])).code).toBe(0);
    const viaEnv = await run(['facilities', 'list', '--json']);
    expect(JSON.parse(viaEnv.stdout).map((f: { id: string }) => f.id)).toEqual(
      demoJson()
        .facilities.map((f) => f.id)
        .sort(),
    );
    // facilities list refuses a missing file: make an empty one, which --db must pick over LISTINGS_DB.
    expect((await run(['db', 'migrate', '--db', other])).code).toBe(0);
    const viaFlag = await run(['facilities', 'list', '--json', '--db', other]);
    expect(viaFlag.code).toBe(0);
    expect(JSON.parse(viaFlag.stdout)).toEqual([]);
  });

  it('facilities list --json gives each facility with its listing counts', async () => {
    await run(['import', DEMO_DATA]);
    const rows = JSON.parse((await run(['facilities', 'list', '--json'])).stdout);
    for (const f of demoJson().facilities) {
      expect(rows.find((r: { id: string }) => r.id === f.id)).toMatchObject({
        id: f.id,
        name: f.name,
        currency: f.currency,
        listings: f.listings.length,
        active_listings: f.listings.filter((l: { active: boolean }) => l.active).length,
      });
    }
  });

  it('db migrate creates a fresh file at the current version and migrates an old one', async () => {
    const fresh = await run(['db', 'migrate', '--json', '--db', join(dir, 'new', 'x.db')]);
    expect(fresh.code).toBe(0);
    expect(JSON.parse(fresh.stdout)).toEqual({ db: join(dir, 'new', 'x.db'), schema_version: SCHEMA_VERSION });

    const old = new Database(dbFile);
    runMigration(old, MIGRATIONS[0]!);
    old.pragma('user_version = 1');
    old.close();
    const r = await run(['db', 'migrate', '--json']);
    expect(JSON.parse(r.stdout).schema_version).toBe(SCHEMA_VERSION);
    const check = new Database(dbFile, { readonly: true });
    expect(check.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    check.close();
  });

  it('db migrate refuses a newer file with exit 1', async () => {
    const future = new Database(dbFile);
    future.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
    future.close();
    const r = await run(['db', 'migrate']);
    expect(r.code).toBe(1);
    expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
  });
});
