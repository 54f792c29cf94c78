// What the panel answers when a request fails: the operator's own mistake as its message, a database that cannot be
// used (or is locked by another process's write) as a 503 that names nothing of it (the log has the detail), anything
// else as a 500.
import { ListingsError } from '../errors.ts';
import type { Logger } from '../logger.ts';
import { busyMessage, isBusy } from '../store/busy.ts';
import { plain } from './http.ts';
import type { Answer } from '../http/transport/answer.ts';
import { pathOf } from '../http/router.ts';

/** What names a failed request. */
export interface FailedRequest {
  requestId: string;
  method: string;
  url: string;
}

/** Seconds a client is asked to wait when the database cannot be used; it recovers by itself once the database does. */
export const STORE_RETRY_SECONDS = 5;

/** The store's codes for a database it cannot use (server/store/pg/connect.ts's pgFailure): not the client's doing. */
const STORE_UNAVAILABLE = new Set(['db_unreachable', 'db_credentials', 'db_missing']);

/** The request's X-Request-Id goes in the log line of a failure and in its 500, so one finds the other. */
export function failureAnswer(err: unknown, logger: Logger, req: FailedRequest): Answer {
  const requestId = req.requestId;
  // As the API logs a failure: id, method and path (no query: a login's next page, a search).
  const named = { request_id: requestId, method: req.method, path: pathOf(req.url).slice(0, 200) };
  // Another process (an import, a revoke by the CLI) writing to the SQLite file: the CLI's words, and a retry.
  if (isBusy(err) || (err instanceof ListingsError && err.code === 'db_busy'))
    return plain(503, `${busyMessage('The database')}.`, { 'retry-after': String(STORE_RETRY_SECONDS) });
  if (err instanceof ListingsError && STORE_UNAVAILABLE.has(err.code)) {
    // The detail names the database's address: for the operator's log, never for whoever sent the request.
    logger.error(named, `panel: the database is unavailable: ${err.message}`);
    return plain(503, 'The database is unavailable; try again in a moment.', {
      'retry-after': String(STORE_RETRY_SECONDS),
    });
  }
  if (err instanceof ListingsError && !err.code.startsWith('db_')) return plain(400, err.message);
  logger.error({ ...named, error: err }, 'panel: unexpected failure');
  return plain(500, `Something went wrong; the server log says what, under request id ${requestId}.`);
}

/** A refusal the operator can fix (a bad rate, an unknown key) as its message; anything else is thrown on. */
export function problemOf(err: unknown): string {
  if (err instanceof ListingsError) return err.message;
  throw err;
}
