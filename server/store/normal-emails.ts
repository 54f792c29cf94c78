// The migration that moves SQLite's stored operator emails to their normal form: a function, since SQLite has no NFKC.
// Plain statements on the tables as they are at this version, never the store's own, which follow later versions.
import type Database from 'better-sqlite3';
import { normalizing } from '../domain/emails.ts';
import { emailKeptAudit, type KeptAudit } from './email-kept.ts';

export function normalEmailsSqlite(db: Database.Database): void {
  const emails = db.prepare<[], string>('SELECT email FROM operators').pluck().all();
  const { rewrites, kept } = normalizing(emails);
  const rewrite = db.prepare<[string, string]>('UPDATE operators SET email = ? WHERE email = ?');
  for (const { from, to } of rewrites) rewrite.run(to, from);
  const audit = db.prepare<[KeptAudit]>(`INSERT INTO audit_log (at, actor, action, facility_id, key_id, detail)
    VALUES (@at, @actor, @action, NULL, NULL, @detail)`);
  for (const row of emailKeptAudit(kept)) audit.run(row);
}
