// The facilities search folds case beyond ASCII, on SQLite and PostgreSQL alike: the demo's own Polish, German and
// Swiss names are found typed in capitals, and the pages and totals of a large list agree between the stores.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseImport } from '../server/domain/import.ts';
import { openStore, type Store } from '../server/store/store.ts';
import { demoImport, tempDir } from './helpers/fixture.ts';
import { manyFacilities } from './helpers/panel-data.ts';
import { usePostgres } from './helpers/postgres.ts';
import { usePanel } from './helpers/panel.ts';

const postgres = usePostgres();
const panel = usePanel();

const ids = async (store: Store, search: string, offset = 0, limit = 50) =>
  (await store.facilityPage({ search, offset, limit })).rows.map((r) => r.id);

async function searches(store: Store) {
  await store.applyImport(demoImport());
  await store.applyImport(parseImport(JSON.stringify(manyFacilities(120, 1)), 'many.json'));
  const out: Record<string, unknown> = {};
  for (const search of ['ZÜRICH', 'zürich', 'KRAKÓW', 'ZABŁOCIE', 'WROCŁAW', 'SafeBox', 'FACILITY 01', '%', '_', ''])
    out[search] = {
      ids: await ids(store, search),
      total: (await store.facilityPage({ search, offset: 0, limit: 50 })).total,
    };
  out.secondPage = await ids(store, 'facility', 50, 50);
  out.pastTheEnd = await store.facilityPage({ search: 'facility', offset: 500, limit: 50 });
  return out;
}

describe('the facilities search', () => {
  it('folds Unicode case on SQLite and PostgreSQL alike', async () => {
    const { dir, cleanup } = tempDir();
    const sqlite = await openStore(join(dir, 's.db'));
    const pg = await openStore(await postgres.server().newDatabase());
    try {
      const [a, b] = [await searches(sqlite), await searches(pg)];
      expect(b).toEqual(a);
      expect(a).toMatchObject({
        ZÜRICH: { ids: ['zrh-1'], total: 1 },
        zürich: { ids: ['zrh-1'], total: 1 },
        KRAKÓW: { ids: ['krk-1'], total: 1 },
        ZABŁOCIE: { ids: ['krk-1'], total: 1 },
        WROCŁAW: { ids: ['wro-1'], total: 1 },
        SafeBox: { ids: ['krk-1', 'wro-1'], total: 2 },
        '%': { ids: [], total: 0 },
        _: { ids: [], total: 0 },
        pastTheEnd: { total: 0, rows: [] },
      });
      expect((a.secondPage as string[]).length).toBe(50);
    } finally {
      await sqlite.close();
      await pg.close();
      cleanup();
    }
  });

  it('finds a facility typed in capitals on the panel page', async () => {
    const s = await panel.client.session();
    const page = String((await s.as('GET', `/?q=${encodeURIComponent('ZÜRICH')}`)).body);
    expect(page).toContain('/facilities/zrh-1');
    expect(page).not.toContain('/facilities/wro-1');
  });
});
