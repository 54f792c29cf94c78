// A key's partner reference: its rule, its defaults, unique within a facility, changed with an audit entry, on both
// stores alike; old databases give their keys one.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultRef, refOfLabel } from '../server/domain/key-ref.ts';
import { openStore, type Store } from '../server/store/store.ts';
import { cliInProcess, demoDb, demoImport, tempDir } from './helpers/fixture.ts';
import { sqliteAt } from './helpers/old-schema.ts';
import { usePostgres } from './helpers/postgres.ts';

const postgres = usePostgres();

describe('the default ref', () => {
  it('comes from the label, accents dropped, else from the key id, and is numbered when taken', () => {
    expect(refOfLabel('  Odra Movers (Wrocław) ')).toBe('odra-movers-wroclaw');
    expect(refOfLabel('Ünïcödé — Żółw.example')).toBe('unicode-zolw-example');
    expect(refOfLabel('!!!')).toBe('');
    expect(refOfLabel('x'.repeat(60))).toHaveLength(40);
    expect(defaultRef('', 'key_AbC123xyz0000000', new Set())).toBe('key-abc123xyz0000000');
    expect(defaultRef('Broker', 'key_A', new Set(['broker', 'broker-2']))).toBe('broker-3');
    expect(defaultRef('y'.repeat(40), 'key_A', new Set(['y'.repeat(40)]))).toBe(`${'y'.repeat(38)}-2`);
  });
});

/** The same steps on a store: what each answered, without random ids and times. */
async function script(store: Store) {
  await store.applyImport(demoImport());
  const make = async (label: string, ref?: string, facilityId = 'wro-1') =>
    (await store.createKey({ facilityId, label, prefix: 'svc', ref })).info.ref;
  const refs = [
    await make('Odra Movers'),
    await make('Odra Movers'),
    await make('', 'broker'),
    await make('x', 'broker', 'ber-1'),
  ];
  const refused = async (p: Promise<unknown>) =>
    p.then(
      () => 'accepted',
      (err: { code: string }) => err.code,
    );
  const taken = await refused(make('y', 'broker'));
  const invalid = await refused(make('y', 'Bad_Ref'));
  const tooLong = await refused(make('y', 'a'.repeat(41)));
  const [first] = await store.listKeys('wro-1');
  const changed = (await store.updateKey(first!.id, { ref: 'odra' }, 'ops@example.com')).ref;
  const clash = await refused(store.updateKey(first!.id, { ref: 'broker' }));
  const same = (await store.updateKey(first!.id, { ref: 'odra', label: 'Odra' })).ref;
  const audit = (await store.auditPage({ action: 'key.update', actor: 'ops@example.com' })).rows.map(
    (r) => r.detail.ref,
  );
  return {
    refs,
    taken,
    invalid,
    tooLong,
    changed,
    clash,
    same,
    audit,
    listed: (await store.listKeys('wro-1')).map((k) => k.ref),
  };
}

describe('refs on SQLite and on PostgreSQL', () => {
  it('answer the same to the same steps', async () => {
    const { dir, cleanup } = tempDir();
    const sqlite = await openStore(join(dir, 'refs.db'));
    const pg = await openStore(await postgres.server().newDatabase());
    try {
      const [onSqlite, onPg] = [await script(sqlite), await script(pg)];
      expect(onPg).toEqual(onSqlite);
      expect(onSqlite).toEqual({
        refs: ['odra-movers', 'odra-movers-2', 'broker', 'broker'],
        taken: 'ref_taken',
        invalid: 'invalid_ref',
        tooLong: 'invalid_ref',
        changed: 'odra',
        clash: 'ref_taken',
        same: 'odra',
        audit: ['odra'],
        listed: ['odra', 'odra-movers-2', 'broker'],
      });
    } finally {
      await sqlite.close();
      await pg.close();
      cleanup();
    }
  });
});

describe('the CLI', () => {
  it('creates with --ref, lists the ref, changes it with keys update, and refuses a bad one with exit 2', async () => {
    const { dir, cleanup } = tempDir();
    try {
      const { file, db } = demoDb(dir);
      db.close();
      const made = await cliInProcess(file, ['keys', 'create', '--facility', 'wro-1', '--ref', 'odra', '--json']);
      const { id, ref } = JSON.parse(made.stdout) as { id: string; ref: string };
      expect(ref).toBe('odra');
      expect((await cliInProcess(file, ['keys', 'create', '--facility', 'wro-1', '--ref', 'Odra!'])).code).toBe(2);
      const again = await cliInProcess(file, ['keys', 'create', '--facility', 'wro-1', '--ref', 'odra']);
      expect(again.code).toBe(1);
      expect(again.stderr).toContain('ref "odra" is taken');
      expect((await cliInProcess(file, ['keys', 'update', id, '--ref', 'odra-movers'])).code).toBe(0);
      const listed = JSON.parse((await cliInProcess(file, ['keys', 'list', '--json'])).stdout) as { ref: string }[];
      expect(listed.map((k) => k.ref)).toEqual(['odra-movers']);
    } finally {
      cleanup();
    }
  });
});

describe('a database from before refs', () => {
  it('gives every key a ref from its id when migrated', async () => {
    const { dir, cleanup } = tempDir();
    try {
      const file = sqliteAt(
        dir,
        9,
        `INSERT INTO facilities (id, name, currency, imported_at) VALUES ('f', 'F', 'PLN', '2026-01-01T00:00:00Z');
        INSERT INTO api_keys (id, facility_id, digest, hint, created_at) VALUES ('key_AbCdEf0123456789', 'f', 'd', 'h', '2026-01-01T00:00:00Z')`,
      );
      const store = await openStore(file);
      expect((await store.listKeys()).map((k) => k.ref)).toEqual(['key-abcdef0123456789']);
      await store.close();
    } finally {
      cleanup();
    }
  });
});
