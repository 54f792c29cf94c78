// Clicks on partners' rent links: one row per facility, listing, ref and UTC day, added to by every node's batches.
import type { Db } from './db.ts';
import { statementsFor } from './statements.ts';

/** What a batch adds to one row: the clicks, and the visitors this node saw for the first time that day. */
export interface ClickDelta {
  facility_id: string;
  listing_code: string;
  ref: string;
  day: string;
  clicks: number;
  unique_visitors: number;
}

export type ReferralGroup = 'day' | 'ref' | 'listing';

export interface ReferralQuery {
  facilityId?: string;
  /** Only this partner reference (the panel's per-key chart and statement). */
  ref?: string;
  /** Inclusive UTC days, YYYY-MM-DD. */
  from: string;
  to: string;
  /** The columns rows are summed by; all of them (one row per facility, ref, listing and day) when absent. */
  by?: ReferralGroup;
}

/** A row of the statement: the columns the query did not sum over are null. */
export interface ReferralRow {
  facility: string;
  ref: string | null;
  listing: string | null;
  day: string | null;
  clicks: number;
  unique_visitors: number;
}

/** Additive, so that nodes writing the same row each add their own counts and none is counted twice. */
export const UPSERT_CLICKS = `INSERT INTO referral_clicks (facility_id, listing_code, ref, day, clicks, unique_visitors)
  VALUES ($1, $2, $3, $4, $5, $6)
  ON CONFLICT (facility_id, listing_code, ref, day) DO UPDATE SET clicks = referral_clicks.clicks + excluded.clicks,
    unique_visitors = referral_clicks.unique_visitors + excluded.unique_visitors`;

/** The statement's SELECT, both dialects: `?` placeholders become `$n` on PostgreSQL. */
export function referralSelect(query: ReferralQuery): { sql: string; params: string[] } {
  const kept = { day: query.by === 'day', ref: query.by === 'ref', listing: query.by === 'listing' };
  const all = query.by === undefined;
  const col = (name: 'day' | 'ref' | 'listing', column: string) =>
    all || kept[name] ? `${column} AS ${name}` : `NULL AS ${name}`;
  const groups = [
    'facility_id',
    ...(all || kept.ref ? ['ref'] : []),
    ...(all || kept.listing ? ['listing_code'] : []),
    ...(all || kept.day ? ['day'] : []),
  ];
  const params = [
    query.from,
    query.to,
    ...(query.facilityId ? [query.facilityId] : []),
    ...(query.ref ? [query.ref] : []),
  ];
  const sql = `SELECT facility_id AS facility, ${col('ref', 'ref')}, ${col('listing', 'listing_code')}, ${col('day', 'day')},
    SUM(clicks) AS clicks, SUM(unique_visitors) AS unique_visitors
    FROM referral_clicks WHERE day >= ? AND day <= ?${query.facilityId ? ' AND facility_id = ?' : ''}${query.ref ? ' AND ref = ?' : ''}
    GROUP BY ${groups.join(', ')} ORDER BY ${groups.join(', ')}`;
  return { sql, params };
}

/** Adds deltas into `into`, one entry per row. */
export function mergeDeltas(into: Map<string, ClickDelta>, deltas: readonly ClickDelta[]): void {
  for (const d of deltas) {
    const key = `${d.facility_id}\0${d.listing_code}\0${d.ref}\0${d.day}`;
    const had = into.get(key);
    if (had) {
      had.clicks += d.clicks;
      had.unique_visitors += d.unique_visitors;
    } else into.set(key, { ...d });
  }
}

const stmts = statementsFor((db) => ({ upsert: db.prepare(UPSERT_CLICKS.replace(/\$\d/g, '?')) }));

/** Without waitForLock a database another process is writing to throws SQLITE_BUSY at once (the serving thread never waits). */
export function recordClicks(db: Db, deltas: readonly ClickDelta[], { waitForLock = true } = {}): void {
  const { upsert } = stmts(db);
  const busyTimeout = waitForLock ? undefined : db.pragma('busy_timeout', { simple: true });
  if (!waitForLock) db.pragma('busy_timeout = 0');
  try {
    db.transaction(() => {
      for (const d of deltas) upsert.run(d.facility_id, d.listing_code, d.ref, d.day, d.clicks, d.unique_visitors);
    })();
  } finally {
    if (!waitForLock) db.pragma(`busy_timeout = ${busyTimeout}`);
  }
}

export function referralRows(db: Db, query: ReferralQuery): ReferralRow[] {
  const { sql, params } = referralSelect(query);
  return db.prepare<string[], ReferralRow>(sql).all(...params);
}
