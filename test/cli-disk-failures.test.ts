// A full disk and a read-only database are said as what they are, by the real CLI on a real filesystem: a tmpfs filled
// up, a read-only bind mount (as root, whom chmod does not stop) or a folder and file chmod-ed read-only (as anyone else).
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { openDb } from '../server/store/db.ts';
import { cliInProcess, DEMO_DATA, tempDir } from './helpers/fixture.ts';

const isRoot = process.getuid?.() === 0;
const undo: (() => void)[] = [];
afterEach(() => {
  for (const step of undo.splice(0).reverse()) step();
});

/** Runs mount(8); false when it fails. */
function mount(args: string[]): boolean {
  try {
    execFileSync('mount', args, { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/**
 * A folder that is its own mount point, unmounted after the test; false without root, who alone may mount. As root (as
 * CI runs) a mount that fails is the test's failure, never a skip.
 */
function mounted(dir: string, args: string[]): boolean {
  if (!isRoot) return false;
  expect(mount([...args, dir]), `mount ${args.join(' ')} ${dir}`).toBe(true);
  undo.push(() => execFileSync('umount', ['-l', dir]));
  return true;
}

it('a read-only database folder is named read-only, not "unable to open database file"', async () => {
  const { dir, cleanup } = tempDir();
  undo.push(cleanup);
  const data = join(dir, 'data');
  mkdirSync(data);
  const file = join(data, 'listings.db');
  expect((await cliInProcess(file, ['import', DEMO_DATA])).code).toBe(0);
  if (isRoot) {
    // chmod does not stop root: the folder is bound read-only onto itself instead.
    mounted(data, ['--bind', data]);
    expect(mount(['-o', 'remount,ro,bind', data])).toBe(true);
  } else {
    chmodSync(file, 0o444);
    chmodSync(data, 0o555);
    undo.push(() => chmodSync(data, 0o755));
  }
  const r = await cliInProcess(file, ['keys', 'create', '--facility', 'wro-1', '--label', 'site']);
  expect(r.code).toBe(1);
  expect(r.stderr).toContain(`database ${file} cannot be written: `);
  expect(r.stderr).toMatch(isRoot ? /is on a read-only filesystem \(EROFS\)/ : /is not writable by this user/);
  expect(r.stderr).not.toMatch(/unexpected failure/);
});

/** The database on a 4 MiB tmpfs with the demo imported; false without root, who alone may mount one. */
async function demoOnSmallDisk(): Promise<{ disk: string; file: string } | false> {
  const { dir, cleanup } = tempDir();
  undo.push(cleanup);
  const disk = join(dir, 'disk');
  mkdirSync(disk);
  if (!mounted(disk, ['-t', 'tmpfs', '-o', 'size=4m', 'tmpfs'])) return false;
  const file = join(disk, 'listings.db');
  expect((await cliInProcess(file, ['import', DEMO_DATA])).code).toBe(0);
  return { disk, file };
}

/** Every byte left on the disk taken by a filler file; removing it frees them. */
function fill(disk: string): string {
  const filler = join(disk, 'filler');
  for (let size = 1 << 20; size >= 512; size >>= 1)
    for (;;)
      try {
        writeFileSync(filler, Buffer.alloc(size), { flag: 'a' });
      } catch {
        break;
      }
  return filler;
}

const CREATE_KEY = ['keys', 'create', '--facility', 'wro-1', '--label', 'site'];

// Without a mount (no root), the injected failures of server/store/disk-failure.test.ts stand in for these.
it('a disk that fills while the server holds the database: the write is refused as a full disk, nothing saved', async ({
  skip,
}) => {
  const small = await demoOnSmallDisk();
  if (!small) return skip();
  const keysBefore = (await cliInProcess(small.file, ['keys', 'list'])).stdout;
  // A server's connection keeps SQLite's WAL and shared-memory files in place, as `serve` does.
  const server = openDb(small.file);
  undo.push(() => server.close());
  const filler = fill(small.disk);
  const r = await cliInProcess(small.file, CREATE_KEY);
  expect(r.code).toBe(1);
  expect(r.stderr).toContain(`the disk is full where database ${small.file} is (SQLITE_FULL)`);
  expect(r.stderr).not.toMatch(/unexpected failure/);
  rmSync(filler);
  expect((await cliInProcess(small.file, ['keys', 'list'])).stdout).toBe(keysBefore);
});

it('a full disk at open is said as a full disk, not "disk I/O error"', async ({ skip }) => {
  const small = await demoOnSmallDisk();
  if (!small) return skip();
  const keysBefore = (await cliInProcess(small.file, ['keys', 'list'])).stdout;
  const filler = fill(small.disk);
  const r = await cliInProcess(small.file, CREATE_KEY);
  expect(r.code).toBe(1);
  expect(r.stderr).toMatch(/the disk is full where database .* is \(SQLITE_IOERR\w*\)/);
  rmSync(filler);
  expect((await cliInProcess(small.file, ['keys', 'list'])).stdout).toBe(keysBefore);
});
