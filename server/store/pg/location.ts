// Which store a --db / LISTINGS_DB value names: a postgres:// URL is PostgreSQL, anything else a SQLite file.
import { ListingsError } from '../../errors.ts';

export function isPostgresUrl(location: string): boolean {
  return /^postgres(ql)?:\/\//i.test(location);
}

/** Looks like a URL of some scheme, so it is no file path: a misspelt postgres:// is refused rather than made a file. */
export function isOtherUrl(location: string): boolean {
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(location) && !isPostgresUrl(location);
}

/** Refuses a URL of another scheme in one line that does not echo it (it may hold a password). */
export function checkLocation(location: string): void {
  if (isOtherUrl(location))
    throw new ListingsError('invalid_config', 'LISTINGS_DB (--db): must be a SQLite file path or a postgres:// URL');
}

/** Query parameters that carry a secret: libpq reads `password` (and `sslpassword`) from the URL's query as well. */
const SECRET_PARAM = /password/i;

/** The location as messages and logs show it: a URL without its password, in its user part or in its query. */
export function describeLocation(location: string): string {
  if (!isPostgresUrl(location)) return location;
  try {
    const url = new URL(location);
    if (url.password) url.password = '***';
    for (const name of new Set(url.searchParams.keys())) if (SECRET_PARAM.test(name)) url.searchParams.set(name, '***');
    return url.toString();
  } catch {
    return 'postgres://(unparseable URL)';
  }
}
