// Keys in PostgreSQL: the same rows as SQLite's; every change that decides an answer is recorded in the change log.
import {
  changedKeyRow,
  infoOf,
  newKeyRow,
  unknownFacility,
  unknownKey,
  type KeyChanges,
  type KeyInfo,
  type KeyRow,
  type NewKeyOptions,
} from '../keys.ts';
import { inTransaction, type Pool, type PoolClient } from './connect.ts';
import { recordChange } from './changes.ts';
import { TABLES } from './tables.ts';
import { CLI_ACTOR, keyAudit } from '../audit.ts';
import { appendAuditPg } from './audit.ts';

const COLUMNS = TABLES.api_keys.join(', ');

export async function createKeyPg(
  pool: Pool,
  opts: NewKeyOptions,
  now = new Date(),
  actor = CLI_ACTOR,
): Promise<{ key: string; info: KeyInfo }> {
  return inTransaction(pool, async (c) => {
    // Locked, so that two keys made at once for one facility cannot both take the same default ref.
    const found = await c.query('SELECT 1 FROM facilities WHERE id = $1 FOR UPDATE', [opts.facilityId]);
    if (found.rowCount === 0) throw unknownFacility(opts.facilityId);
    const { key, row } = newKeyRow(opts, await refsTaken(c, opts.facilityId), now);
    await c.query(
      `INSERT INTO api_keys (id, facility_id, label, digest, hint, created_at, rate_per_s, burst, allowed_origins, ref)
        VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
      [
        row.id,
        row.facility_id,
        row.label,
        row.digest,
        row.hint,
        row.created_at,
        row.rate_per_s,
        row.burst,
        row.allowed_origins,
        row.ref,
      ],
    );
    await holdRef(c, row.facility_id, row.ref, row.id);
    await recordChange(c, { keys: [row.id] });
    const info = infoOf({ ...row, revoked_at: null, last_used_at: null });
    await appendAuditPg(c, keyAudit('key.create', actor, info, now));
    return { key, info };
  });
}

export async function listKeysPg(pool: Pool, facilityId?: string): Promise<KeyInfo[]> {
  // seq breaks ties in creation order, as rowid does in SQLite; "C" compares as SQLite does, byte by byte.
  const order = 'ORDER BY created_at COLLATE "C", seq';
  const { rows } = facilityId
    ? await pool.query<KeyRow>(`SELECT ${COLUMNS} FROM api_keys WHERE facility_id = $1 ${order}`, [facilityId])
    : await pool.query<KeyRow>(`SELECT ${COLUMNS} FROM api_keys ${order}`);
  return rows.map(infoOf);
}

/** The refs `keyId` may not take: those other keys of the facility hold or have held, and those no known key held. */
async function refsTaken(c: PoolClient, facilityId: string, keyId = ''): Promise<Set<string>> {
  const { rows } = await c.query<{ ref: string }>(
    `SELECT ref FROM api_keys WHERE facility_id = $1 AND id <> $2
      UNION SELECT ref FROM key_refs WHERE facility_id = $1 AND key_id IS DISTINCT FROM $2`,
    [facilityId, keyId],
  );
  return new Set(rows.map((r) => r.ref));
}

/** Records that the key holds `ref`: from then on it is that key's within the facility. */
async function holdRef(c: PoolClient, facilityId: string, ref: string, keyId: string): Promise<void> {
  await c.query('INSERT INTO key_refs (facility_id, ref, key_id) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING', [
    facilityId,
    ref,
    keyId,
  ]);
}

async function lockedKey(c: PoolClient, id: string): Promise<KeyRow> {
  const { rows } = await c.query<KeyRow>(`SELECT ${COLUMNS} FROM api_keys WHERE id = $1 FOR UPDATE`, [id]);
  if (!rows[0]) throw unknownKey(id);
  return rows[0];
}

export async function revokeKeyPg(pool: Pool, id: string, now = new Date(), actor = CLI_ACTOR): Promise<KeyInfo> {
  return inTransaction(pool, async (c) => {
    const before = await lockedKey(c, id);
    // Revoked already: its first revocation stands, and is the one audited.
    if (before.revoked_at !== null) return infoOf(before);
    const { rows } = await c.query<KeyRow>(
      `UPDATE api_keys SET revoked_at = COALESCE(revoked_at, $2) WHERE id = $1 RETURNING ${COLUMNS}`,
      [id, now.toISOString()],
    );
    await recordChange(c, { keys: [id] });
    const info = infoOf(rows[0]!);
    await appendAuditPg(c, keyAudit('key.revoke', actor, info, now));
    return info;
  });
}

export async function updateKeyPg(pool: Pool, id: string, changes: KeyChanges, actor = CLI_ACTOR): Promise<KeyInfo> {
  return inTransaction(pool, async (c) => {
    const before = await lockedKey(c, id);
    await c.query('SELECT 1 FROM facilities WHERE id = $1 FOR UPDATE', [before.facility_id]);
    const row = changedKeyRow(before, changes, await refsTaken(c, before.facility_id, id));
    await holdRef(c, before.facility_id, row.ref, id);
    const { rows } = await c.query<KeyRow>(
      `UPDATE api_keys SET label = $2, rate_per_s = $3, burst = $4, allowed_origins = $5, ref = $6 WHERE id = $1
        RETURNING ${COLUMNS}`,
      [id, row.label, row.rate_per_s, row.burst, row.allowed_origins, row.ref],
    );
    await recordChange(c, { keys: [id] });
    const info = infoOf(rows[0]!);
    await appendAuditPg(c, keyAudit('key.update', actor, info));
    return info;
  });
}

/** Many last-use times in one statement; no change recorded: a last use decides no answer. */
export async function recordLastUsePg(pool: Pool, uses: ReadonlyMap<string, Date>): Promise<void> {
  if (uses.size === 0) return;
  await pool.query(
    `UPDATE api_keys SET last_used_at = u.at FROM unnest($1::text[], $2::text[]) AS u(id, at)
      WHERE api_keys.id = u.id AND (last_used_at IS NULL OR last_used_at < u.at)`,
    [[...uses.keys()], [...uses.values()].map((d) => d.toISOString())],
  );
}
