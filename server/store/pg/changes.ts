// The change log every serving node follows: a counter raised in the same transaction as every write that changes answers.
import type { PoolClient } from './connect.ts';

/** The channel NOTIFY wakes listeners on (caches dropped early, the publisher woken); never relied on for freshness. */
export const CHANGES_CHANNEL = 'listings_changes';

/** Changes kept in the log: a node further behind than this reloads everything. */
export const CHANGES_KEPT = 10_000;

export interface Change {
  facilities?: readonly string[];
  keys?: readonly string[];
}

/**
 * Raises the counter and records what changed, inside the writer's transaction. The counter's row lock, held to commit,
 * makes writers commit in version order, so a reader that saw version N has seen every change up to N.
 */
export async function recordChange(c: PoolClient, change: Change): Promise<number> {
  const { rows } = await c.query<{ version: string }>(
    'UPDATE change_counter SET version = version + 1 RETURNING version',
  );
  const version = Number(rows[0]!.version);
  await c.query(
    `INSERT INTO changes (version, facility_id, key_id)
      SELECT $1::bigint, f, NULL FROM unnest($2::text[]) f UNION ALL SELECT $1::bigint, NULL, k FROM unnest($3::text[]) k`,
    [version, change.facilities ?? [], change.keys ?? []],
  );
  await c.query('DELETE FROM changes WHERE version <= $1', [version - CHANGES_KEPT]);
  await c.query('SELECT pg_notify($1, $2)', [CHANGES_CHANNEL, String(version)]);
  return version;
}
