// What the panel shows once on the page after its action (a new key, a webhook secret, a publish's result): kept for
// the session that acted, so a reload of that page (a GET) shows it no more, and any node of the panel can show it.
// Bounded: at most SHOWN_ONCE_PER_SESSION a session, each for SHOWN_ONCE_MS, and gone with its session.
import type { Db } from './db.ts';
import { statementsFor } from './statements.ts';

export const SHOWN_ONCE_MS = 10 * 60_000;
export const SHOWN_ONCE_PER_SESSION = 8;

/** Both dialects' statements, `p(n)` naming the n-th parameter. */
export const shownOnceSql = (p: (n: number) => string, dialect: 'sqlite' | 'pg') => ({
  dropExpired: `DELETE FROM panel_shown_once WHERE expires_at <= ${p(1)}`,
  keep: `INSERT INTO panel_shown_once (session_digest, subject, value, expires_at) VALUES (${p(1)}, ${p(2)}, ${p(3)}, ${p(4)})
    ON CONFLICT (session_digest, subject) DO UPDATE SET value = excluded.value, expires_at = excluded.expires_at`,
  // The session's newest rows stay; PostgreSQL orders text by byte, as SQLite does, only in the C collation.
  dropOldest: `DELETE FROM panel_shown_once WHERE session_digest = ${p(1)} AND subject NOT IN (
    SELECT subject FROM panel_shown_once WHERE session_digest = ${p(1)}
    ORDER BY expires_at${dialect === 'pg' ? ' COLLATE "C"' : ''} DESC LIMIT ${SHOWN_ONCE_PER_SESSION})`,
  take: `DELETE FROM panel_shown_once WHERE session_digest = ${p(1)} AND subject = ${p(2)} AND expires_at > ${p(3)}
    RETURNING value`,
});

// Anonymous parameters, in the order they appear (the session's digest twice in dropOldest).
const sql = shownOnceSql(() => '?', 'sqlite');
const stmts = statementsFor((db) => ({
  dropExpired: db.prepare<[string]>(sql.dropExpired),
  keep: db.prepare<[string, string, string, string]>(sql.keep),
  dropOldest: db.prepare<[string, string]>(sql.dropOldest),
  take: db.prepare<[string, string, string], string>(sql.take).pluck(),
}));

/** Keeps `value` for the session to read once under `subject` (a later one replaces it), until SHOWN_ONCE_MS after `now`. */
export function keepShownOnce(db: Db, sessionDigest: string, subject: string, value: string, now: Date): void {
  const s = stmts(db);
  const expires = new Date(now.getTime() + SHOWN_ONCE_MS).toISOString();
  db.transaction(() => {
    s.dropExpired.run(now.toISOString());
    s.keep.run(sessionDigest, subject, value, expires);
    s.dropOldest.run(sessionDigest, sessionDigest);
  }).immediate();
}

/** The value kept for the session under `subject`, removed as it is read; undefined once read, expired or never kept. */
export function takeShownOnce(db: Db, sessionDigest: string, subject: string, now: Date): string | undefined {
  return stmts(db).take.get(sessionDigest, subject, now.toISOString());
}
