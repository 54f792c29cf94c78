// The Store contract on both backends: the same import, keys and last use give the same rows, and a node's mirror of
// PostgreSQL holds exactly what the SQLite file holds.
import { describe, expect, it } from 'vitest';
import { openStore, type Store } from '../server/store/store.ts';
import { openDb } from '../server/store/db.ts';
import { facilityData } from '../server/store/facilities.ts';
import { Mirror } from '../server/store/pg/mirror.ts';
import { openPg } from '../server/store/pg/connect.ts';
import { parseImport } from '../server/domain/import.ts';
import { demoImport, demoJson } from './helpers/fixture.ts';
import { usePostgres } from './helpers/postgres.ts';
import { join } from 'node:path';

const postgres = usePostgres();

/** The same steps on a store; what each step answered, without times and random ids. */
async function script(store: Store) {
  const out: unknown[] = [];
  out.push(await store.applyImport(demoImport()));
  const changed = demoJson();
  changed.facilities[0].listings.pop();
  changed.facilities[0].listings[0].free_units = 0;
  out.push(await store.applyImport(parseImport(JSON.stringify({ facilities: [changed.facilities[0]] }), 'x.json')));
  out.push((await store.listFacilities()).map(({ imported_at: _, ...f }) => f));
  const a = await store.createKey({ facilityId: 'wro-1', label: 'a', prefix: 'svc' });
  const b = await store.createKey({ facilityId: 'ber-1', label: 'b', prefix: 'svc', rate_per_s: 3 });
  await expect(store.createKey({ facilityId: 'nope', prefix: 'svc' })).rejects.toMatchObject({
    code: 'unknown_facility',
  });
  await store.revokeKey(a.info.id);
  await store.updateKey(b.info.id, { label: 'b2', allowed_origins: ['https://x.example'] });
  // A label counted as a person counts it: 200 emoji are 200 characters.
  await store.updateKey(b.info.id, { label: '📦'.repeat(200) });
  await expect(store.updateKey(b.info.id, { label: '📦'.repeat(201) })).rejects.toMatchObject({
    code: 'invalid_key_limit',
  });
  await expect(store.revokeKey('key_nope')).rejects.toMatchObject({ code: 'unknown_key' });
  await store.recordLastUse(new Map([[b.info.id, new Date('2030-01-01T00:00:00Z')]]));
  await store.recordLastUse(new Map([[b.info.id, new Date('2029-01-01T00:00:00Z')]]));
  const keys = await store.listKeys();
  out.push(
    keys.map(({ id: _, created_at: __, hint: ___, revoked_at, ...k }) => ({ ...k, revoked: revoked_at !== null })),
  );
  out.push((await store.listKeys('ber-1')).length);
  out.push(await store.schemaVersion());
  return out;
}

describe('Store on SQLite and on PostgreSQL', () => {
  it('answers the same to the same steps', async () => {
    const sqlite = await openStore(join(postgres.dir(), 'a.db'));
    const pg = await openStore(await postgres.server().newDatabase());
    try {
      expect(await script(pg)).toEqual(await script(sqlite));
    } finally {
      await sqlite.close();
      await pg.close();
    }
  });

  it("a node's mirror holds what the SQLite file holds, and follows later changes", async () => {
    const url = await postgres.server().newDatabase();
    const pg = await openStore(url);
    const file = join(postgres.dir(), 'b.db');
    const sqlite = await openStore(file);
    const pool = await openPg(url);
    const mirror = new Mirror(pool);
    try {
      await pg.applyImport(demoImport());
      await sqlite.applyImport(demoImport());
      expect(await mirror.sync()).toBe(true);
      expect(await mirror.sync()).toBe(false);
      const db = openDb(file);
      const same = () => {
        for (const id of ['wro-1', 'ber-1', 'zrh-1', 'krk-1'])
          expect(facilityData(mirror.db, id)).toEqual(facilityData(db, id));
      };
      same();
      const changed = demoJson();
      changed.facilities[1].listings.reverse();
      changed.facilities[1].listings[0].photos = [];
      const next = parseImport(JSON.stringify({ facilities: [changed.facilities[1]] }), 'x.json');
      await pg.applyImport(next);
      await sqlite.applyImport(next);
      expect(await mirror.sync()).toBe(true);
      same();
      const key = await pg.createKey({ facilityId: 'zrh-1', prefix: 'svc' });
      await mirror.sync();
      expect(mirror.db.prepare('SELECT revoked_at FROM api_keys WHERE id = ?').get(key.info.id)).toEqual({
        revoked_at: null,
      });
      await pg.revokeKey(key.info.id);
      await mirror.sync();
      expect(mirror.db.prepare('SELECT revoked_at FROM api_keys WHERE id = ?').get(key.info.id)).not.toEqual({
        revoked_at: null,
      });
      db.close();
    } finally {
      mirror.close();
      await pool.end();
      await pg.close();
      await sqlite.close();
    }
  });
});
