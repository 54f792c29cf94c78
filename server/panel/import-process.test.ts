// The panel's import runs in a process of its own, over its own store connection: the server's event loop goes on
// answering meanwhile, the file is checked and applied as `listings import` does, and a file too large for the
// thread's memory fails alone, with nothing changed.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { facilityOf } from '../../bench/lib/data.ts';
import { demoJson } from '../../test/helpers/fixture.ts';
import { useDemoDb } from '../../test/helpers/setup.ts';
import { facilityData } from '../store/facilities.ts';
import { openStore } from '../store/store.ts';
import { importInProcess } from './import.ts';

const demo = useDemoDb();
const onPostgres = useDemoDb({ backend: 'postgres' });

const fileOf = (name: string, data: unknown) => {
  const path = join(demo.dir, name);
  writeFileSync(path, JSON.stringify(data));
  return path;
};

it('applies a file in its process while the event loop turns, and audits it under the operator', async () => {
  const path = fileOf('large.json', { facilities: [facilityOf(7, 2000)] });
  let done = false;
  const result = importInProcess({ location: demo.file, path, filename: 'large.json', actor: 'ops@example.com' });
  void result.then(() => (done = true));
  let turns = 0;
  while (!done) {
    await new Promise((resolve) => setImmediate(resolve));
    turns++;
  }
  // Checked and applied on the event loop, a file of 2,000 listings would leave it a few turns at most.
  expect(turns).toBeGreaterThan(50);
  expect(await result).toEqual({ summary: { facilities: 1, listings: 2000, deactivated: 0 } });
  expect(facilityData(demo.db, 'fac-00007')!.listings).toHaveLength(2000);
  const audit = demo.db.prepare<[], { actor: string; action: string }>('SELECT actor, action FROM audit_log').all();
  expect(audit.at(-1)).toEqual({ actor: 'ops@example.com', action: 'import' });
});

it("answers a file's problems as the CLI states them, and changes nothing", async () => {
  const data = demoJson();
  data.facilities[0].listings[0].free_units = 999;
  const before = facilityData(demo.db, data.facilities[0].id);
  const result = await importInProcess({
    location: demo.file,
    path: fileOf('bad.json', data),
    filename: 'bad.json',
    actor: 'ops@example.com',
  });
  expect(result).toEqual({ problems: [expect.stringContaining('facilities[0].listings[0].free_units')] });
  expect(facilityData(demo.db, data.facilities[0].id)).toEqual(before);
});

it('a file that needs more memory than its process may take fails alone: a problem, nothing changed', async () => {
  const path = fileOf('huge.json', { facilities: [facilityOf(8, 20_000)] });
  const result = await importInProcess(
    { location: demo.file, path, filename: 'huge.json', actor: 'ops@example.com' },
    16,
  );
  expect(result).toEqual({ problems: [expect.stringMatching(/^the file needs more than 16 MB of memory to check/)] });
  expect(facilityData(demo.db, 'fac-00008')).toBeUndefined();
});

it('imports into a PostgreSQL store through a connection of its own', async () => {
  const path = fileOf('pg.json', { facilities: [facilityOf(9, 300)] });
  const result = await importInProcess({
    location: onPostgres.location,
    path,
    filename: 'pg.json',
    actor: 'ops@example.com',
  });
  expect(result).toEqual({ summary: { facilities: 1, listings: 300, deactivated: 0 } });
  const store = await openStore(onPostgres.location, { mustExist: true });
  try {
    expect((await store.facilityData('fac-00009'))!.listings).toHaveLength(300);
    expect((await store.listAudit())[0]).toMatchObject({ action: 'import', actor: 'ops@example.com' });
  } finally {
    await store.close();
  }
});
