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
export class PendingClicks {
  private pending = new Map<string, ClickDelta>();
  private writing: Promise<void> | undefined;

  constructor(private readonly pool: Pool) {}

  readonly add = (deltas: readonly ClickDelta[]): void => {
    mergeDeltas(this.pending, deltas);
    void this.flush();
  };

  async flush(): Promise<void> {
    while (this.writing) await this.writing;
    if (this.pending.size === 0) return;
    const batch = this.pending;
    this.pending = new Map();
    this.writing = recordClicksPg(this.pool, [...batch.values()])
      .catch(() => mergeDeltas(this.pending, [...batch.values()]))
      .finally(() => (this.writing = undefined));
    await this.writing;
  }
}
