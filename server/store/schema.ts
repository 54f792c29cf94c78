// One rule for a schema's version on both dialects: newer than this program is refused, older is migrated only when asked.
import { ListingsError } from '../errors.ts';

/**
 * The migrations still to run on a schema at version `current` (none when it is current), or the error that says why
 * it cannot be used; `where` names the database in that line (` at …`, or '' for a file named elsewhere).
 */
export function pendingMigrations<T>(migrations: readonly T[], current: number, apply: boolean, where = ''): T[] {
  const latest = migrations.length;
  if (current > latest)
    throw new ListingsError(
      'db_too_new',
      `database schema version ${current}${where} is newer than this program supports (${latest}); upgrade storage-listings`,
    );
  if (current < latest && !apply)
    throw new ListingsError(
      'db_outdated',
      `database schema version ${current} needs migrating to ${latest}: run "listings db migrate"`,
    );
  return migrations.slice(current);
}
