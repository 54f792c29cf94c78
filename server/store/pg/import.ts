// `listings import` into PostgreSQL: the same rows as SQLite's import, written in bulk, in one transaction with its change.
import type { ImportFile } from '../../schemas/import.ts';
import { listingIdOf } from '../../domain/facility.ts';
import type { ImportSummary } from '../facilities.ts';
import { facilityRowOf, listingRowOf } from '../rows.ts';
import { inTransaction, type Pool, type PoolClient } from './connect.ts';
import { recordChange } from './changes.ts';
import { pgInsertFromJson, TABLES } from './tables.ts';
import { CLI_ACTOR, importAudit } from '../audit.ts';
import { appendAuditPg } from './audit.ts';
import { runPg } from '../steps.ts';
import { importEventsAfter, importEventsBefore } from '../webhook-import.ts';

/** Facilities written per round of statements: bounds one statement's JSON while keeping round trips few. */
const FACILITIES_PER_ROUND = 100;

const updated = (table: 'facilities' | 'listings' | 'photos', keep: readonly string[]) =>
  TABLES[table].filter((c) => !keep.includes(c));
const updateAll = (table: 'facilities' | 'listings' | 'photos', keep: readonly string[]) =>
  updated(table, keep)
    .map((c) => `${c} = excluded.${c}`)
    .join(', ');
const LISTING_KEEP = ['id', 'facility_id', 'code'];
const PHOTO_KEEP = ['listing_id', 'position'];
const rowOf = (table: 'listings' | 'photos', keep: readonly string[], as: string) =>
  `(${updated(table, keep).map((c) => `${as}.${c}`)})`;
/** Rows the file leaves as they were are not written again: a re-import rewrites only what changed (no dead rows). */
const unlessSame = (table: 'listings' | 'photos', keep: readonly string[]) =>
  `DO UPDATE SET ${updateAll(table, keep)} WHERE ${rowOf(table, keep, table)} IS DISTINCT FROM ${rowOf(table, keep, 'excluded')}`;

const UPSERT_FACILITIES = `${pgInsertFromJson('facilities')} ON CONFLICT (id) DO UPDATE SET ${updateAll('facilities', ['id', 'revision'])}, revision = facilities.revision + 1 RETURNING (xmax = 0) AS inserted`;
const UPSERT_LISTINGS = `${pgInsertFromJson('listings')} ON CONFLICT (id) ${unlessSame('listings', LISTING_KEEP)}`;
const UPSERT_PHOTOS = `${pgInsertFromJson('photos')} ON CONFLICT (listing_id, position) ${unlessSame('photos', PHOTO_KEEP)}`;
const DELETE_OTHER_PHOTOS =
  'DELETE FROM photos WHERE listing_id = ANY($1) AND (listing_id, position) NOT IN (SELECT * FROM unnest($2::text[], $3::int[]))';

export async function importPg(
  pool: Pool,
  file: ImportFile,
  now = new Date(),
  actor = CLI_ACTOR,
): Promise<ImportSummary> {
  const importedAt = now.toISOString();
  return inTransaction(pool, async (c) => {
    // First, so that the counter's row lock orders this import after any write still in progress.
    await recordChange(c, { facilities: file.facilities.map((f) => f.id) });
    const before = await runPg(c, importEventsBefore(file.facilities.map((f) => f.id)));
    const summary: ImportSummary = { facilities: file.facilities.length, listings: 0, deactivated: 0 };
    for (let i = 0; i < file.facilities.length; i += FACILITIES_PER_ROUND) {
      await importRound(c, file.facilities.slice(i, i + FACILITIES_PER_ROUND), importedAt, summary);
    }
    await runPg(c, importEventsAfter(before, now.getTime()));
    await appendAuditPg(c, importAudit(actor, file, summary, now));
    return summary;
  });
}

async function importRound(
  c: PoolClient,
  facilities: ImportFile['facilities'],
  importedAt: string,
  summary: ImportSummary,
): Promise<void> {
  const ids = facilities.map((f) => f.id);
  const json = (rows: unknown[]) => [JSON.stringify(rows)];
  const upserted = await c.query<{ inserted: boolean }>(
    UPSERT_FACILITIES,
    json(facilities.map((f) => ({ ...facilityRowOf(f, importedAt), revision: 1 }))),
  );
  // Facilities new to the database have no photos yet: theirs are inserted without looking for any to keep.
  const allNew = upserted.rows.every((r) => r.inserted);
  await c.query('DELETE FROM pricing_rules WHERE facility_id = ANY($1)', [ids]);
  const rules = facilities.flatMap((f) => f.pricing_rules.map((r) => ({ facility_id: f.id, ...r })));
  if (rules.length > 0) await c.query(pgInsertFromJson('pricing_rules'), json(rules));
  const listings = facilities.flatMap((f) => f.listings.map((l, position) => listingRowOf(f.id, l, position)));
  const kept = listings.map((l) => l.id);
  // Listings missing from the file or marked inactive in it become inactive (kept, not deleted); only those active
  // until now are counted.
  const gone = await c.query(
    'UPDATE listings SET active = 0 WHERE facility_id = ANY($1) AND active = 1 AND NOT (id = ANY($2))',
    [ids, listings.filter((l) => l.active === 1).map((l) => l.id)],
  );
  summary.deactivated += gone.rowCount ?? 0;
  if (listings.length > 0) await c.query(UPSERT_LISTINGS, json(listings));
  const photos = facilities.flatMap((f) =>
    f.listings.flatMap((l) =>
      l.photos.map((p, position) => ({
        listing_id: listingIdOf(f.id, l.code),
        position,
        url: p.url,
        caption: p.caption,
        width: p.width ?? null,
        height: p.height ?? null,
      })),
    ),
  );
  if (!allNew)
    await c.query(DELETE_OTHER_PHOTOS, [kept, photos.map((p) => p.listing_id), photos.map((p) => p.position)]);
  if (photos.length > 0) await c.query(allNew ? pgInsertFromJson('photos') : UPSERT_PHOTOS, json(photos));
  summary.listings += listings.filter((l) => l.active === 1).length;
}
