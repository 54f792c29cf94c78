// The settings every command shares: their variables and defaults in --help, flag over variable over default, a bad
// value a usage error from either, and the version from package.json.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Command } from 'commander';
import { bufferIo, cli, DEMO_DATA, REPO, dbPathEachTest } from '../test/helpers/fixture.ts';
import { createProgram, EXIT_USAGE, runCli } from './program.ts';

let dbFile: string;
dbPathEachTest((t) => (dbFile = t.file));

async function run(args: string[], env: NodeJS.ProcessEnv = {}) {
  const io = bufferIo({ LISTINGS_DB: dbFile, ...env });
  const code = await runCli(args, io);
  return { code, stdout: io.stdout(), stderr: io.stderr() };
}

/** Help as one line: commander wraps it to the width of the terminal. */
const helpOf = async (path: string[]) => (await run([...path, '--help'])).stdout.replace(/\s+/g, ' ');

const PACKAGE_VERSION = (JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { version: string }).version;

describe('--help shows each setting with its default and its variable', () => {
  it.each([
    [[], '--db <file|url>', '"./data/listings.db"', 'LISTINGS_DB'],
    [[], '--key-prefix <prefix>', '"svc"', 'KEY_PREFIX'],
    [['serve'], '--host <host>', '"127.0.0.1"', 'HOST'],
    [['serve'], '--port <port>', '8787', 'PORT'],
    [['serve'], '--public-url <url>', 'http://HOST:PORT', 'PUBLIC_URL'],
    [['serve'], '--trust-proxy <addresses>', 'none', 'TRUST_PROXY'],
    [['demo'], '--port <port>', '8787', 'PORT'],
    [['snapshot', 'export'], '--public-url <url>', 'http://HOST:PORT', 'PUBLIC_URL'],
    [['snapshot', 'publish'], '--public-url <url>', 'http://HOST:PORT', 'PUBLIC_URL'],
    [['keys', 'create'], '--db <file|url>', '"./data/listings.db"', 'LISTINGS_DB'], // the global options, in every command's help
  ])('%j: %s', async (path, flags, defaultValue, envVar) => {
    const help = await helpOf(path);
    expect(help).toMatch(new RegExp(`${escape(flags)} [^(]*\\(default: ${escape(defaultValue)}, env: ${envVar}\\)`));
  });

  it('every option that reads a variable has a default to show', () => {
    const withEnv = (cmd: Command): string[] => [
      ...cmd.options.filter((o) => o.envVar !== undefined && o.defaultValue === undefined).map((o) => o.flags),
      ...cmd.commands.flatMap(withEnv),
    ];
    // The S3 options' defaults belong to the AWS SDK (its region chain, AWS's endpoint): their help says so in words.
    expect(withEnv(createProgram(bufferIo()))).toEqual(['--endpoint <url>', '--region <region>']);
  });
});

describe('an empty variable is an unset one', () => {
  it('every option that reads a variable gives its default for an empty value', () => {
    const withEnv = (cmd: Command): { flags: string; empty: unknown; defaultValue: unknown }[] => [
      ...cmd.options
        .filter((o) => o.envVar !== undefined && !o.isBoolean())
        .map((o) => ({
          flags: `${cmd.name()} ${o.flags}`,
          empty: o.parseArg ? o.parseArg('', o.defaultValue) : '',
          defaultValue: o.defaultValue,
        })),
      ...cmd.commands.flatMap(withEnv),
    ];
    const options = withEnv(createProgram(bufferIo()));
    expect(options.map((o) => o.flags)).toEqual(expect.arrayContaining(['panel --host <host>', 'panel --port <port>']));
    for (const o of options) expect(o.empty, o.flags).toEqual(o.defaultValue);
  });
});

describe('a setting comes from its flag, else its variable, else its default', () => {
  const prefixOf = async (args: string[], env: NodeJS.ProcessEnv) => {
    const r = await run([...args, 'keys', 'create', '--facility', 'wro-1'], env);
    expect([r.code, r.stderr.startsWith('Key key_')]).toEqual([0, true]);
    return r.stdout.trim().split('_live_')[0];
  };

  beforeEach(async () => {
    expect((await run(['import', DEMO_DATA])).code).toBe(0);
  });

  it('in-process, from the Io', async () => {
    expect(await prefixOf([], {})).toBe('svc');
    expect(await prefixOf([], { KEY_PREFIX: 'acme' })).toBe('acme');
    expect(await prefixOf(['--key-prefix', 'flag'], { KEY_PREFIX: 'acme' })).toBe('flag');
    // An empty variable is an unset one (`KEY_PREFIX= listings ...`).
    expect(await prefixOf([], { KEY_PREFIX: '' })).toBe('svc');
  });

  it('keys create names the prefix it used: only a server with the same KEY_PREFIX takes the key', async () => {
    const r = await run(['keys', 'create', '--facility', 'wro-1'], { KEY_PREFIX: 'acme' });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('KEY_PREFIX=acme');
  });

  it('in the real binary, from its environment', () => {
    const create = (args: string[], env: NodeJS.ProcessEnv) =>
      cli([...args, 'keys', 'create', '--facility', 'wro-1'], { env: { LISTINGS_DB: dbFile, ...env } });
    expect(create([], { KEY_PREFIX: 'acme' }).stdout).toMatch(/^acme_live_/);
    expect(create(['--key-prefix', 'flag'], { KEY_PREFIX: 'acme' }).stdout).toMatch(/^flag_live_/);
  });

  it('a bad value is a usage error, from a flag or a variable, naming both', async () => {
    for (const [args, env] of [
      [['--key-prefix', 'Not-A-Prefix'], {}],
      [[], { KEY_PREFIX: 'Not-A-Prefix' }],
    ] as const) {
      const r = await run([...args, 'keys', 'create', '--facility', 'wro-1'], env);
      expect(r.code).toBe(EXIT_USAGE);
      expect(r.stderr).toMatch(/^error: option '--key-prefix <prefix>' /);
      if (args.length === 0) expect(r.stderr).toContain("from env 'KEY_PREFIX'");
    }
    expect(JSON.parse((await run(['keys', 'list', '--json'])).stdout)).toEqual([]);
  });
});

describe('an on/off variable is 1 or true, 0 or false, and nothing else', () => {
  it('WEBHOOKS_ALLOW_PRIVATE=yes is refused by webhooks add, naming it, and adds nothing', async () => {
    expect((await run(['import', DEMO_DATA])).code).toBe(0);
    const key = JSON.parse((await run(['keys', 'create', '--facility', 'wro-1', '--json'])).stdout).id;
    const add = (env: NodeJS.ProcessEnv) =>
      run(['webhooks', 'add', '--key', key, '--url', 'https://127.0.0.1:9443/', '--json'], env);
    const refused = await add({ WEBHOOKS_ALLOW_PRIVATE: 'yes' });
    expect([refused.code, refused.stderr]).toEqual([
      EXIT_USAGE,
      expect.stringMatching(/^error: WEBHOOKS_ALLOW_PRIVATE=yes: /),
    ]);
    expect((await run(['webhooks', 'list', '--json'])).stdout).not.toContain('127.0.0.1');
    expect((await add({ WEBHOOKS_ALLOW_PRIVATE: 'true' })).code).toBe(0);
  });
});

describe('--version', () => {
  it("is package.json's version, in-process and in the built binary", async () => {
    const r = await run(['--version']);
    expect([r.code, r.stdout.trim()]).toEqual([0, PACKAGE_VERSION]);
    const bin = cli(['--version']);
    expect([bin.status, bin.stdout.trim()]).toEqual([0, PACKAGE_VERSION]);
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
