// Clicks on partners' rent links in PostgreSQL: the same rows and statements as SQLite's.
import {
  mergeDeltas,
  referralSelect,
  UPSERT_CLICKS,
  type ClickDelta,
  type ReferralQuery,
  type ReferralRow,
} from '../referrals.ts';
import { inTransaction, type Pool } from './connect.ts';
import { PendingWrites, type PendingWritesOptions } from './pending-writes.ts';

export async function recordClicksPg(pool: Pool, deltas: readonly ClickDelta[]): Promise<void> {
  if (deltas.length === 0) return;
  await inTransaction(pool, async (c) => {
    for (const d of deltas)
      await c.query(UPSERT_CLICKS, [d.facility_id, d.listing_code, d.ref, d.day, d.clicks, d.unique_visitors]);
  });
}

export async function referralRowsPg(pool: Pool, query: ReferralQuery): Promise<ReferralRow[]> {
  const { sql, params } = referralSelect(query);
  let n = 0;
  const { rows } = await pool.query<ReferralRow>(
    sql.replace(/\?/g, () => `$${++n}`),
    params,
  );
  // SUM of bigint comes back as text: counts are numbers in every answer.
  return rows.map((r) => ({ ...r, clicks: Number(r.clicks), unique_visitors: Number(r.unique_visitors) }));
}

/** A serving node's click batches to PostgreSQL: added up in memory, written in one transaction, kept on failure. */
export class PendingClicks extends PendingWrites<Map<string, ClickDelta>> {
  constructor(pool: Pool, options: PendingWritesOptions = {}) {
    super(
      () => new Map(),
      (into, from) => mergeDeltas(into, [...from.values()]),
      (batch) => recordClicksPg(pool, [...batch.values()]),
      (batch) => batch.size,
      options,
    );
  }

  /** A flush of the handler's counter, as rows. */
  readonly addDeltas = (deltas: readonly ClickDelta[]): void => {
    const batch = new Map<string, ClickDelta>();
    mergeDeltas(batch, deltas);
    this.add(batch);
  };
}
