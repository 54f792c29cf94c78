// A serving node's copy of PostgreSQL, in a SQLite database in memory: the synchronous read code runs on it as on a file.
import { openDb, type Db } from '../db.ts';
import { CHANGES_KEPT } from './changes.ts';
import { inTransaction, type Pool, type PoolClient } from './connect.ts';
import { SERVED_TABLES, TABLES } from './tables.ts';

type Row = Record<string, unknown>;
type Served = (typeof SERVED_TABLES)[number];

/** What one sync copies: everything, or the facilities and keys that changed since the last one. */
interface Update {
  version: number;
  full: boolean;
  facilityIds: string[];
  rows: Record<Served, Row[]>;
}

const COUNTER = 'SELECT version FROM change_counter';
/** The read before every batch, prepared once per connection: the server skips parsing and planning it each time. */
const COUNTER_PREPARED = { name: 'listings-change-counter', text: COUNTER };

export class Mirror {
  readonly db: Db = openDb(':memory:');
  /** The change counter the copy is current with; -1 before the first sync. */
  private version = -1;
  private readonly write = mirrorStatements(this.db);

  constructor(private readonly pool: Pool) {}

  /** The change counter the copy is current with. */
  get syncedVersion(): number {
    return this.version;
  }

  /** One read of the counter; when it moved, copies what changed. Resolves to whether anything did. */
  async sync(): Promise<boolean> {
    const { rows } = await this.pool.query<{ version: string }>(COUNTER_PREPARED);
    if (Number(rows[0]!.version) === this.version) return false;
    // One snapshot: the counter and the rows it covers are read as of one moment.
    const update = await inTransaction(
      this.pool,
      async (c) => {
        const version = Number((await c.query<{ version: string }>(COUNTER)).rows[0]!.version);
        const full = this.version < 0 || version - this.version > CHANGES_KEPT;
        return full ? readAll(c, version) : readChanged(c, this.version, version);
      },
      'BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY',
    );
    this.write(update);
    this.version = update.version;
    return true;
  }

  close(): void {
    this.db.close();
  }
}

async function readAll(c: PoolClient, version: number): Promise<Update> {
  const rows = {} as Record<Served, Row[]>;
  for (const t of SERVED_TABLES) rows[t] = (await c.query<Row>(`SELECT ${TABLES[t].join(', ')} FROM ${t}`)).rows;
  return { version, full: true, facilityIds: [], rows };
}

async function readChanged(c: PoolClient, since: number, version: number): Promise<Update> {
  const changed = await c.query<{ facility_id: string | null; key_id: string | null }>(
    'SELECT DISTINCT facility_id, key_id FROM changes WHERE version > $1',
    [since],
  );
  const facilityIds = changed.rows.flatMap((r) => (r.facility_id === null ? [] : [r.facility_id]));
  const keyIds = changed.rows.flatMap((r) => (r.key_id === null ? [] : [r.key_id]));
  const cols = (t: Served, alias = '') => TABLES[t].map((col) => alias + col).join(', ');
  const q = async (sql: string, ids: string[]) => (ids.length === 0 ? [] : (await c.query<Row>(sql, [ids])).rows);
  return {
    version,
    full: false,
    facilityIds,
    rows: {
      facilities: await q(`SELECT ${cols('facilities')} FROM facilities WHERE id = ANY($1)`, facilityIds),
      pricing_rules: await q(
        `SELECT ${cols('pricing_rules')} FROM pricing_rules WHERE facility_id = ANY($1)`,
        facilityIds,
      ),
      listings: await q(`SELECT ${cols('listings')} FROM listings WHERE facility_id = ANY($1)`, facilityIds),
      photos: await q(
        `SELECT ${cols('photos', 'p.')} FROM photos p JOIN listings l ON l.id = p.listing_id WHERE l.facility_id = ANY($1)`,
        facilityIds,
      ),
      api_keys: await q(`SELECT ${cols('api_keys')} FROM api_keys WHERE id = ANY($1)`, keyIds),
    },
  };
}

/** Applies an update in one SQLite transaction. */
function mirrorStatements(db: Db): (update: Update) => void {
  const insert = Object.fromEntries(
    SERVED_TABLES.map((t) => {
      const cols = TABLES[t];
      // A changed facility or key replaces its row; the rows below a facility were deleted first.
      const conflict =
        t === 'facilities'
          ? ` ON CONFLICT (id) DO UPDATE SET ${cols.map((c) => `${c} = excluded.${c}`).join(', ')}`
          : '';
      const verb = t === 'api_keys' ? 'INSERT OR REPLACE' : 'INSERT';
      return [
        t,
        db.prepare(`${verb} INTO ${t} (${cols.join(', ')}) VALUES (${cols.map((c) => '@' + c).join(', ')})${conflict}`),
      ];
    }),
  ) as Record<Served, ReturnType<Db['prepare']>>;
  const clearAll = [...SERVED_TABLES].reverse().map((t) => db.prepare(`DELETE FROM ${t}`));
  const clearRules = db.prepare('DELETE FROM pricing_rules WHERE facility_id = ?');
  // Photos go with their listings (ON DELETE CASCADE).
  const clearListings = db.prepare('DELETE FROM listings WHERE facility_id = ?');
  return db.transaction((update: Update) => {
    if (update.full) for (const s of clearAll) s.run();
    for (const id of update.facilityIds) {
      clearRules.run(id);
      clearListings.run(id);
    }
    for (const t of SERVED_TABLES) for (const row of update.rows[t]) insert[t].run(row);
  });
}
