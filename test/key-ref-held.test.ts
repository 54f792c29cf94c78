// A ref a key has held stays that key's within its facility: another key asking for it is refused as for a ref in use,
// so two partners' clicks never share a statement row; migrated databases learn who held what from the audit log,
// and a ref counted in clicks that no known key held is refused to every key. Both stores alike.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openStore, type Store } from '../server/store/store.ts';
import { cliInProcess, demoImport, tempDir } from './helpers/fixture.ts';
import { postgresAt, sqliteAt } from './helpers/old-schema.ts';
import { usePanel } from './helpers/panel.ts';
import { usePostgres } from './helpers/postgres.ts';
import { recordKeysIn } from './helpers/capture.ts';

const postgres = usePostgres();
const panel = usePanel();

const outcome = async (p: Promise<{ ref: string }>) =>
  p.then(
    (k) => k.ref,
    (err: { code: string }) => err.code,
  );

/** The steps of the review: a partner's ref given up by a rename, then asked for by others and by its own key. */
async function renames(store: Store) {
  await store.applyImport(demoImport());
  const make = (label: string, ref?: string, facilityId = 'wro-1') =>
    outcome(store.createKey({ facilityId, label, prefix: 'svc', ref }).then((k) => k.info));
  await make('A', 'odra');
  await make('B', 'vistula');
  const [a, b] = await store.listKeys('wro-1');
  const update = (id: string, ref: string) => outcome(store.updateKey(id, { ref }));
  return {
    renamed: await update(b!.id, 'wisla'),
    takenByOther: await update(a!.id, 'vistula'),
    takenByNew: await make('C', 'vistula'),
    defaulted: await make('Vistula'),
    otherFacility: await make('D', 'vistula', 'ber-1'),
    takenBack: await update(b!.id, 'vistula'),
    renamedAgain: await update(b!.id, 'wisla'),
    listed: (await store.listKeys('wro-1')).map((k) => k.ref),
  };
}

const RENAMES = {
  renamed: 'wisla',
  takenByOther: 'ref_taken',
  takenByNew: 'ref_taken',
  defaulted: 'vistula-2',
  otherFacility: 'vistula',
  takenBack: 'vistula',
  renamedAgain: 'wisla',
  listed: ['odra', 'wisla', 'vistula-2'],
};

describe('a ref given up by one key', () => {
  it('is refused to every other key of the facility on SQLite', async () => {
    const { dir, cleanup } = tempDir();
    const store = await openStore(join(dir, 'held.db'));
    try {
      expect(await renames(store)).toEqual(RENAMES);
    } finally {
      await store.close();
      cleanup();
    }
  });

  it('is refused to every other key of the facility on PostgreSQL', async () => {
    const store = await openStore(await postgres.server().newDatabase());
    try {
      expect(await renames(store)).toEqual(RENAMES);
    } finally {
      await store.close();
    }
  });
});

describe('the CLI and the panel', () => {
  it('refuse a ref another key gave up, with the message of a ref in use', async () => {
    const cli = (...args: string[]) => cliInProcess(panel.file, args);
    const make = async (ref: string) => {
      const made = await cli('keys', 'create', '--facility', 'wro-1', '--ref', ref, '--json');
      recordKeysIn(made.stdout);
      return (JSON.parse(made.stdout) as { id: string }).id;
    };
    const a = await make('odra');
    const b = await make('vistula');
    expect((await cli('keys', 'update', b, '--ref', 'wisla')).code).toBe(0);
    const byCli = await cli('keys', 'update', a, '--ref', 'vistula');
    expect(byCli.code).toBe(1);
    expect(byCli.stderr).toContain('ref "vistula" is taken');
    const s = await panel.client.session();
    const byPanel = await s.as('POST', `/keys/${a}`, { label: '', ref: 'vistula' });
    expect(String(byPanel.body)).toContain('ref &quot;vistula&quot; is taken');
    const made = await s.as('POST', '/facilities/wro-1/keys', { label: 'x', ref: 'vistula' });
    expect(made.status).toBe(400);
    expect((await panel.store.listKeys('wro-1')).map((k) => k.ref)).toEqual(['odra', 'wisla']);
  });
});

const BEFORE = 15;
const K1 = 'key_AbCdEf0123456781';
const K2 = 'key_AbCdEf0123456782';

// k1 holds "odra" and held "stara" (its audit says so); "both" was held by k1 and k2 in turn; "vistula" is in clicks
// alone, its key unknown.
const ROWS = `
  INSERT INTO facilities (id, name, currency, imported_at) VALUES ('f', 'F', 'PLN', '2026-01-01T00:00:00Z');
  INSERT INTO api_keys (id, facility_id, digest, hint, created_at, ref)
    VALUES ('${K1}', 'f', 'd1', 'h', '2026-01-01T00:00:00Z', 'odra'),
           ('${K2}', 'f', 'd2', 'h', '2026-01-01T00:00:00Z', 'nowa');
  INSERT INTO audit_log (at, actor, action, facility_id, key_id, detail)
    VALUES ('2026-01-01T00:00:00Z', 'cli', 'key.create', 'f', '${K1}', '{"label":"","ref":"stara"}'),
           ('2026-01-02T00:00:00Z', 'cli', 'key.update', 'f', '${K1}', '{"label":"","ref":"both"}'),
           ('2026-01-03T00:00:00Z', 'cli', 'key.update', 'f', '${K1}', '{"label":"","ref":"odra"}'),
           ('2026-01-04T00:00:00Z', 'cli', 'key.update', 'f', '${K2}', '{"label":"","ref":"both"}'),
           ('2026-01-05T00:00:00Z', 'cli', 'key.update', 'f', '${K2}', '{"label":"","ref":"nowa"}');
  INSERT INTO referral_clicks (facility_id, listing_code, ref, day, clicks, unique_visitors)
    VALUES ('f', 'u1', 'vistula', '2026-01-01', 3, 2), ('f', 'u1', 'stara', '2026-01-01', 1, 1),
           ('f', 'u1', 'both', '2026-01-03', 1, 1);
`;

async function afterMigration(location: string) {
  const store = await openStore(location);
  try {
    const update = (id: string, ref: string) => outcome(store.updateKey(id, { ref }));
    return {
      strangerToOld: await update(K2, 'stara'),
      unknownToK1: await update(K1, 'vistula'),
      unknownToK2: await update(K2, 'vistula'),
      unknownToNew: await outcome(
        store.createKey({ facilityId: 'f', label: '', prefix: 'svc', ref: 'vistula' }).then((k) => k.info),
      ),
      sharedToK1: await update(K1, 'both'),
      sharedToK2: await update(K2, 'both'),
      ownBack: await update(K1, 'stara'),
    };
  } finally {
    await store.close();
  }
}

const MIGRATED = {
  strangerToOld: 'ref_taken',
  unknownToK1: 'ref_taken',
  unknownToK2: 'ref_taken',
  unknownToNew: 'ref_taken',
  sharedToK1: 'ref_taken',
  sharedToK2: 'ref_taken',
  ownBack: 'stara',
};

describe('a database from before held refs were kept', () => {
  it('on SQLite', async () => {
    const { dir, cleanup } = tempDir();
    try {
      expect(await afterMigration(sqliteAt(dir, BEFORE, ROWS))).toEqual(MIGRATED);
    } finally {
      cleanup();
    }
  });

  it('on PostgreSQL', async () => {
    expect(await afterMigration(await postgresAt(postgres.server(), BEFORE, ROWS))).toEqual(MIGRATED);
  });
});
