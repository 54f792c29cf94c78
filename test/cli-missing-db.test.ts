// Commands that only read refuse a database file that does not exist, create nothing, and say to import; only
// `import` and `db migrate` create one.
import cluster from 'node:cluster';
import { existsSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, onTestFinished, vi } from 'vitest';
import { runCli } from '../cli/program.ts';
import { bufferIo, cli, cliAsync, DEMO_DATA, freePort, REPO, tempDir } from './helpers/fixture.ts';

const noDatabase = (path: string) => `error: no database at ${path}: run listings import first\n`;

/** The signing key that snapshot export and publish need before they get as far as the database. */
let keys: ReturnType<typeof tempDir>;
let signingKey: string;
beforeAll(() => {
  keys = tempDir('listings-missing-db-key-');
  expect(cli(['snapshot', 'keygen', '--out', keys.dir]).status).toBe(0);
  signingKey = join(keys.dir, 'signing-key.pem');
});
afterAll(() => keys.cleanup());

/**
 * A temp folder, removed when the test finishes, with a made-up database path in it: in the folder itself, or in a
 * subfolder that does not exist. Concurrent tests pass their own context's onTestFinished.
 */
function missingDb(where: 'folder' | 'subfolder', onFinished = onTestFinished) {
  const { dir, cleanup } = tempDir();
  onFinished(cleanup);
  const file = where === 'folder' ? join(dir, 'listings.db') : join(dir, 'nowhere', 'listings.db');
  // Where a command would write its output, also still absent afterwards.
  return { dir, file, out: join(dir, 'out') };
}

type Fixture = ReturnType<typeof missingDb>;

// Each command that reads, with the arguments it needs to get as far as opening the database.
const COMMANDS: [string, (f: Fixture) => Promise<string[]> | string[]][] = [
  ['keys list', () => ['keys', 'list']],
  ['keys create', () => ['keys', 'create', '--facility', 'wro-1', '--label', 'site']],
  ['keys revoke', () => ['keys', 'revoke', 'key_AAAAAAAAAAAAAAAA']],
  ['keys update', () => ['keys', 'update', 'key_AAAAAAAAAAAAAAAA', '--label', 'site']],
  ['facilities list', () => ['facilities', 'list']],
  ['snapshot export', (f) => ['snapshot', 'export', '--out', f.out, '--signing-key', signingKey]],
  ['snapshot publish', (f) => ['snapshot', 'publish', '--to', f.out, '--signing-key', signingKey]],
  ['snapshot publish --watch', (f) => ['snapshot', 'publish', '--watch', '--to', f.out, '--signing-key', signingKey]],
  ['serve', async () => ['serve', '--port', String(await freePort()), '--quiet']],
  ['serve --workers 2', async () => ['serve', '--workers', '2', '--port', String(await freePort()), '--quiet']],
];

const PLACES = [
  ['in a folder that exists', 'folder'],
  ['in a folder that does not exist', 'subfolder'],
] as const;

describe.concurrent.each(PLACES)('a missing database %s', (_place, where) => {
  // A serve that wrongly started would only stop at cliAsync's 60 s timeout (SIGTERM, exit 0): let that fail on the code.
  it.for(COMMANDS)(
    '%s exits 1 with one line and creates nothing',
    { timeout: 90_000 },
    async ([, argsOf], { expect, onTestFinished }) => {
      const f = missingDb(where, onTestFinished);
      const before = readdirSync(f.dir);
      const r = await cliAsync(['--db', f.file, ...(await argsOf(f))]);
      expect(r.status).toBe(1);
      expect(r.stderr).toBe(noDatabase(f.file));
      expect(r.stdout).toBe('');
      expect(existsSync(f.file)).toBe(false);
      // No -wal, -shm or journal beside it, no subfolder, no output folder: the temp folder is as it was.
      expect(readdirSync(f.dir)).toEqual(before);
    },
  );
});

describe('the path in the message is the one the user gave', () => {
  it('from LISTINGS_DB', () => {
    const f = missingDb('subfolder');
    const r = cli(['keys', 'list'], { env: { LISTINGS_DB: f.file } });
    expect([r.status, r.stderr]).toEqual([1, noDatabase(f.file)]);
    expect(existsSync(join(f.dir, 'nowhere'))).toBe(false);
  });

  it('relative to the working folder, as typed', () => {
    const f = missingDb('subfolder');
    const typed = relative(REPO, f.file); // the binary runs in the repository
    const r = cli(['--db', typed, 'facilities', 'list']);
    expect([r.status, r.stderr]).toEqual([1, noDatabase(typed)]);
    expect(existsSync(join(f.dir, 'nowhere'))).toBe(false);
  });
});

describe('serve --workers', () => {
  afterEach(() => vi.restoreAllMocks());

  it('refuses in the primary, before any worker is forked', async () => {
    const f = missingDb('folder');
    const fork = vi.spyOn(cluster, 'fork').mockImplementation(() => {
      throw new Error('forked a worker');
    });
    const io = bufferIo({});
    expect(await runCli(['--db', f.file, 'serve', '--workers', '2', '--port', String(await freePort())], io)).toBe(1);
    expect(io.stderr()).toBe(noDatabase(f.file));
    expect(fork).not.toHaveBeenCalled();
    expect(existsSync(f.file)).toBe(false);
  });
});

describe('the commands that create the database still do', () => {
  it('import creates it, folder and all, and the reading commands then open it', () => {
    const f = missingDb('subfolder');
    expect(cli(['--db', f.file, 'import', DEMO_DATA]).status).toBe(0);
    expect(existsSync(f.file)).toBe(true);
    const list = cli(['--db', f.file, 'facilities', 'list', '--json']);
    expect(list.status).toBe(0);
    expect(JSON.parse(list.stdout).length).toBeGreaterThan(0);
  });

  it('db migrate creates it, folder and all', () => {
    const f = missingDb('subfolder');
    expect(cli(['--db', f.file, 'db', 'migrate']).status).toBe(0);
    expect(existsSync(f.file)).toBe(true);
    expect(cli(['--db', f.file, 'keys', 'list', '--json']).stdout.trim()).toBe('[]');
  });

  it('a :memory: database is not a file and still opens', () => {
    const r = cli(['--db', ':memory:', 'facilities', 'list', '--json']);
    expect([r.status, r.stdout.trim()]).toEqual([0, '[]']);
    expect(existsSync(join(REPO, ':memory:'))).toBe(false);
  });
});
