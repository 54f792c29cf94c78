// The migration that moves PostgreSQL's stored operator emails to their normal form, as SQLite's (../normal-emails.ts):
// in JavaScript, so both stores agree on NFKC and lower case whatever the database's version and locale.
import type pg from 'pg';
import { normalizing } from '../../domain/emails.ts';
import { emailKeptAudit } from '../email-kept.ts';

export async function normalEmailsPg(c: pg.ClientBase): Promise<void> {
  const { rows } = await c.query<{ email: string }>('SELECT email FROM operators');
  const { rewrites, kept } = normalizing(rows.map((r) => r.email));
  for (const { from, to } of rewrites) await c.query('UPDATE operators SET email = $1 WHERE email = $2', [to, from]);
  for (const row of emailKeptAudit(kept))
    await c.query(
      `INSERT INTO audit_log (at, actor, action, facility_id, key_id, detail) VALUES ($1, $2, $3, NULL, NULL, $4)`,
      [row.at, row.actor, row.action, row.detail],
    );
}
