// SQLite's disk failures as the operator is told them; the real filesystems are in test/cli-disk-failures.test.ts.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { diskFailure } from './disk-failure.ts';

const dir = mkdtempSync(join(tmpdir(), 'listings-disk-'));
afterAll(() => rmSync(dir, { recursive: true }));
const sqliteError = (code: string, message: string) => Object.assign(new Error(message), { code });

it('names a full disk', () => {
  const failure = diskFailure(sqliteError('SQLITE_FULL', 'database or disk is full'), join(dir, 'x.db'));
  expect(failure?.code).toBe('db_disk_full');
});

it('names a database SQLite opened read-only', () => {
  const failure = diskFailure(
    sqliteError('SQLITE_READONLY', 'attempt to write a readonly database'),
    join(dir, 'x.db'),
  );
  expect(failure?.code).toBe('db_read_only');
});

it('leaves a file that cannot be opened in a writable folder, and other errors, as they are', () => {
  expect(
    diskFailure(sqliteError('SQLITE_CANTOPEN', 'unable to open database file'), join(dir, 'x.db')),
  ).toBeUndefined();
  expect(
    diskFailure(sqliteError('SQLITE_CORRUPT', 'database disk image is malformed'), join(dir, 'x.db')),
  ).toBeUndefined();
  expect(diskFailure(new Error('boom'), join(dir, 'x.db'))).toBeUndefined();
});
