// What the panel shows once, on PostgreSQL: the statements of ../shown-once.ts, so that any node of the panel shows it.
import { inTransaction, type Pool } from './connect.ts';
import { SHOWN_ONCE_MS, shownOnceSql } from '../shown-once.ts';

const sql = shownOnceSql((n) => `$${n}`, 'pg');

export async function keepShownOncePg(
  pool: Pool,
  sessionDigest: string,
  subject: string,
  value: string,
  now: Date,
): Promise<void> {
  const expires = new Date(now.getTime() + SHOWN_ONCE_MS).toISOString();
  await inTransaction(pool, async (c) => {
    await c.query(sql.dropExpired, [now.toISOString()]);
    await c.query(sql.keep, [sessionDigest, subject, value, expires]);
    await c.query(sql.dropOldest, [sessionDigest]);
  });
}

export async function takeShownOncePg(
  pool: Pool,
  sessionDigest: string,
  subject: string,
  now: Date,
): Promise<string | undefined> {
  const { rows } = await pool.query<{ value: string }>(sql.take, [sessionDigest, subject, now.toISOString()]);
  return rows[0]?.value;
}
