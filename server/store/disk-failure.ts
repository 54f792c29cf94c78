// SQLite failures that come from where the file lives, not from the data: a full disk and a file, folder or filesystem
// that cannot be written, said as what they are rather than as SQLite's own words or "unexpected failure".
import { accessSync, constants, statfsSync } from 'node:fs';
import { dirname } from 'node:path';
import { ListingsError } from '../errors.ts';

const codeOf = (err: unknown) => String((err as { code?: unknown } | null)?.code);

/**
 * A write that found no room: SQLITE_FULL, or an I/O error (SQLite's shared-memory file, made at open, cannot grow) on
 * a filesystem with no free block left. SQLite rolls back the transaction it was in, so no change is half made.
 */
export function isDiskFull(err: unknown, file: string): boolean {
  const code = codeOf(err);
  return code === 'SQLITE_FULL' || (code.startsWith('SQLITE_IOERR') && noRoomAt(dirname(file)));
}

function noRoomAt(dir: string): boolean {
  try {
    return statfsSync(dir).bavail === 0;
  } catch {
    return false;
  }
}

/**
 * Why `file` cannot be written, when that is so: a read-only filesystem (EROFS, as a read-only mount or a container's
 * read-only root gives), or the file or its folder not writable by this user; undefined when both are writable.
 */
export function readOnlyCause(file: string): string | undefined {
  const places: [string, string][] = [
    [file, 'the file'],
    [dirname(file), 'its folder'],
  ];
  for (const [path, what] of places) {
    try {
      accessSync(path, constants.W_OK);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'EROFS') return `${path} is on a read-only filesystem (EROFS)`;
      if (code === 'EACCES' || code === 'EPERM') return `${what} ${path} is not writable by this user (${code})`;
    }
  }
  return undefined;
}

/**
 * What an error from SQLite on `file` means for the operator, when it is the disk's doing: a full disk, or a file SQLite
 * could not open or write because it is read-only (SQLITE_READONLY, or SQLITE_CANTOPEN where the folder or filesystem
 * is read-only, since SQLite then cannot make the WAL's files beside it). Undefined for any other error.
 */
export function diskFailure(err: unknown, file: string): ListingsError | undefined {
  const code = codeOf(err);
  if (isDiskFull(err, file))
    return new ListingsError(
      'db_disk_full',
      `the disk is full where database ${file} is (${code}): SQLite rolls back a write it cannot finish, so nothing ` +
        'is half saved; free some space and run the command again',
    );
  if (!code.startsWith('SQLITE_READONLY') && !code.startsWith('SQLITE_CANTOPEN')) return undefined;
  const cause = readOnlyCause(file);
  if (!cause && !code.startsWith('SQLITE_READONLY')) return undefined;
  return new ListingsError(
    'db_read_only',
    `database ${file} cannot be written: ${cause ?? 'SQLite opened it read-only'} (${code}: ` +
      `${(err as Error).message}); SQLite needs the file and its folder writable, as it keeps its WAL files beside it`,
  );
}
