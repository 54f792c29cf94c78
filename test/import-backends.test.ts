// What an import stores and says, the same on a SQLite file and on PostgreSQL: money up to the documented 10^12 minor
// units read back as numbers, and a listing re-imported with "active": false counted as deactivated.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseImport } from '../server/domain/import.ts';
import { ListingsError } from '../server/errors.ts';
import { openStore, type Store } from '../server/store/store.ts';
import { demoJson } from './helpers/fixture.ts';
import { usePostgres } from './helpers/postgres.ts';
import { BACKENDS, type Backend } from './helpers/setup.ts';

const postgres = usePostgres();
const MOST = 1_000_000_000_000;

async function storeOn(backend: Backend, name: string): Promise<Store> {
  return openStore(backend === 'sqlite' ? join(postgres.dir(), `${name}.db`) : await postgres.server().newDatabase());
}

/** The demo file's first facility (wro-1) alone, changed by `change`. */
function wro(change: (f: ReturnType<typeof demoJson>['facilities'][number]) => void = () => {}) {
  const f = demoJson().facilities[0];
  change(f);
  return parseImport(JSON.stringify({ facilities: [f] }), 'wro.json');
}

describe.each(BACKENDS)('import on %s', (backend) => {
  it('stores a price and a deposit of 10^12 minor units and reads them back as numbers', async () => {
    const store = await storeOn(backend, 'money');
    try {
      await store.applyImport(
        wro((f) => {
          Object.assign(f.listings[0], { price_gross: MOST, deposit: MOST, promotions: [] });
          f.fees = [{ code: 'big', title: 'Big fee', amount_gross: MOST, vat_rate: 23, when: 'move_in' }];
          Object.assign(f.protection.plans[0], { cover: MOST, price_gross: MOST });
        }),
      );
      const data = (await store.facilityData('wro-1'))!;
      expect(data.listings[0]).toMatchObject({ price_gross: MOST, deposit: MOST });
      expect(data.facility.fees[0]).toMatchObject({ amount_gross: MOST });
      expect(data.facility.protection?.plans[0]).toMatchObject({ cover: MOST, price_gross: MOST });
    } finally {
      await store.close();
    }
  });

  it('counts an active listing re-imported with "active": false as deactivated, and one left out of the file', async () => {
    const store = await storeOn(backend, 'deactivated');
    try {
      expect(await store.applyImport(wro())).toMatchObject({ deactivated: 0 });
      const listings = demoJson().facilities[0].listings.filter((l: { active: boolean }) => l.active).length;
      const first = await store.applyImport(wro((f) => (f.listings[0].active = false)));
      expect(first).toEqual({ facilities: 1, listings: listings - 1, deactivated: 1 });
      // Already inactive: not counted again; one more left out of the file is.
      const second = await store.applyImport(
        wro((f) => {
          f.listings[0].active = false;
          f.listings.splice(1, 1);
        }),
      );
      expect(second).toEqual({ facilities: 1, listings: listings - 2, deactivated: 1 });
    } finally {
      await store.close();
    }
  });
});

describe('photo sizes', () => {
  it('refuses a width or height over 100,000 pixels, naming the field', () => {
    const data = demoJson();
    Object.assign(data.facilities[0].listings[1].photos[0], { width: 100_001, height: 100_000 });
    try {
      parseImport(JSON.stringify(data), 'f.json');
      expect.unreachable('the file was accepted');
    } catch (err) {
      if (!(err instanceof ListingsError)) throw err;
      expect(err.details).toEqual([expect.stringMatching(/^facilities\[0\]\.listings\[1\]\.photos\[0\]\.width: /)]);
    }
  });
});
