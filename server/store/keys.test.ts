// Keys in the store: digests only, verification reasons, independent revocation, last use, and no key on disk.
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { dbBytes, demoDb, issueKey, tempDir } from '../../test/helpers/fixture.ts';
import { ListingsError } from '../errors.ts';
import { digestOf } from '../domain/keys.ts';
import type { Db } from './db.ts';
import { createKey, keyById, listKeys, recordLastUse, revokeKey, updateKey, verifyKey } from './keys.ts';

let dir: string;
let cleanup: () => void;
let db: Db;
let file: string;
beforeEach(() => {
  ({ dir, cleanup } = tempDir());
  ({ db, file } = demoDb(dir));
});
afterEach(() => {
  if (db.open) db.close();
  cleanup();
});

function errorCode(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (err) {
    return err instanceof ListingsError ? err.code : `not a ListingsError: ${String(err)}`;
  }
  return undefined;
}

describe('createKey', () => {
  it('returns the key once and stores its digest, hint, facility, label and time', () => {
    const now = new Date('2026-03-01T10:00:00.000Z');
    const { key, info } = createKey(db, { facilityId: 'wro-1', label: 'broker', prefix: 'svc' }, now);
    expect(key).toMatch(/^svc_live_[A-Za-z0-9]{32}$/);
    expect(info).toMatchObject({
      facility_id: 'wro-1',
      label: 'broker',
      hint: key.slice(-4),
      created_at: now.toISOString(),
      revoked_at: null,
      last_used_at: null,
    });
    expect(info).not.toHaveProperty('digest');
    const row = db.prepare('SELECT * FROM api_keys WHERE id = ?').get(info.id) as Record<string, unknown>;
    expect(row.digest).toBe(digestOf(key));
    expect(Object.values(row)).not.toContain(key);
  });

  it('uses a custom brand prefix', () => {
    const { key } = createKey(db, { facilityId: 'wro-1', prefix: 'acme' });
    expect(key).toMatch(/^acme_live_[A-Za-z0-9]{32}$/);
    expect(verifyKey(db, key, 'acme').ok).toBe(true);
    expect(verifyKey(db, key, 'svc')).toEqual({ ok: false, reason: 'invalid_api_key' });
  });

  it('refuses a key for an unknown facility and stores nothing', () => {
    expect(errorCode(() => createKey(db, { facilityId: 'nowhere', prefix: 'svc' }))).toBe('unknown_facility');
    expect(listKeys(db)).toEqual([]);
  });
  it('holds every label to the one rule, whoever writes it: trimmed, one line, at most 200 characters', () => {
    const before = listKeys(db).length;
    expect(errorCode(() => createKey(db, { facilityId: 'wro-1', label: 'x'.repeat(201), prefix: 'svc' }))).toBe(
      'invalid_key_limit',
    );
    expect(() => createKey(db, { facilityId: 'wro-1', label: 'a\u001b[2Jb', prefix: 'svc' })).toThrow(
      'label: must be one line without control characters (U+001B at character 2)',
    );
    expect(listKeys(db)).toHaveLength(before);
    const { info } = createKey(db, { facilityId: 'wro-1', label: '  broker  ', prefix: 'svc' });
    expect(info.label).toBe('broker');
    expect(errorCode(() => updateKey(db, info.id, { label: 'two\nlines' }))).toBe('invalid_key_limit');
    expect(keyById(db, info.id)!.label).toBe('broker');
  });
});

describe('verifyKey', () => {
  it('gives the facility for a valid key', () => {
    const { key, id } = issueKey(db, 'ber-1');
    const v = verifyKey(db, key, 'svc');
    expect(v.ok && v.key).toMatchObject({ id, facility_id: 'ber-1' });
  });

  it.each([
    ['missing_api_key', undefined],
    ['missing_api_key', ''],
    ['invalid_api_key', 'svc_live_short'],
    ['invalid_api_key', 'Bearer svc_live_' + 'a'.repeat(32)],
    ['invalid_api_key', 'svc_live_' + 'a'.repeat(31) + '!'],
    ['invalid_api_key', 'svc_live_' + 'a'.repeat(32)], // well formed, never issued
  ])('answers %s for %j', (reason, presented) => {
    issueKey(db, 'wro-1');
    expect(verifyKey(db, presented, 'svc')).toEqual({ ok: false, reason });
  });

  it('answers revoked_api_key once revoked', () => {
    const { key, id } = issueKey(db, 'wro-1');
    const revoked = revokeKey(db, id, new Date('2026-03-02T00:00:00.000Z'));
    expect(revoked.revoked_at).toBe('2026-03-02T00:00:00.000Z');
    expect(verifyKey(db, key, 'svc')).toEqual({ ok: false, reason: 'revoked_api_key' });
  });
});

describe('several keys per facility', () => {
  it('are revoked independently; a second revoke keeps the first time', () => {
    const a = issueKey(db, 'wro-1', { label: 'a' });
    const b = issueKey(db, 'wro-1', { label: 'b' });
    const c = issueKey(db, 'wro-1', { label: 'c' });
    const other = issueKey(db, 'zrh-1');
    revokeKey(db, b.id, new Date('2026-03-02T00:00:00.000Z'));
    expect(verifyKey(db, a.key, 'svc').ok).toBe(true);
    expect(verifyKey(db, b.key, 'svc')).toEqual({ ok: false, reason: 'revoked_api_key' });
    expect(verifyKey(db, c.key, 'svc').ok).toBe(true);
    expect(revokeKey(db, b.id, new Date('2026-04-01T00:00:00.000Z')).revoked_at).toBe('2026-03-02T00:00:00.000Z');
    expect(listKeys(db, 'wro-1').map((k) => [k.label, k.revoked_at !== null])).toEqual([
      ['a', false],
      ['b', true],
      ['c', false],
    ]);
    expect(listKeys(db, 'zrh-1').map((k) => k.id)).toEqual([other.id]);
    expect(listKeys(db)).toHaveLength(4);
  });

  it('revoking an unknown key id is an error', () => {
    expect(errorCode(() => revokeKey(db, 'key_doesnotexist0000'))).toBe('unknown_key');
  });
});

describe('recordLastUse', () => {
  it('writes the times of many keys at once and never moves a time backwards', () => {
    const a = issueKey(db, 'wro-1');
    const b = issueKey(db, 'ber-1');
    const t1 = new Date('2026-03-01T10:00:00.000Z');
    const t2 = new Date('2026-03-01T10:00:05.000Z');
    recordLastUse(
      db,
      new Map([
        [a.id, t2],
        [b.id, t1],
      ]),
    );
    expect(keyById(db, a.id)!.last_used_at).toBe(t2.toISOString());
    expect(keyById(db, b.id)!.last_used_at).toBe(t1.toISOString());
    recordLastUse(db, new Map([[a.id, t1]]));
    expect(keyById(db, a.id)!.last_used_at).toBe(t2.toISOString());
  });
});

describe('the database file', () => {
  it('never holds a full key or its secret part, before or after a checkpoint', () => {
    const issued = Array.from({ length: 5 }, (_, i) => issueKey(db, i % 2 ? 'wro-1' : 'ber-1', { label: `k${i}` }));
    revokeKey(db, issued[0]!.id);
    recordLastUse(db, new Map(issued.map((k) => [k.id, new Date()])));
    const check = (bytes: Buffer) => {
      for (const { key } of issued) {
        expect(bytes.includes(key)).toBe(false);
        expect(bytes.includes(key.slice('svc_live_'.length))).toBe(false);
        // The digest is there: these are the right bytes.
        expect(bytes.includes(digestOf(key))).toBe(true);
      }
    };
    check(dbBytes(file));
    db.pragma('wal_checkpoint(TRUNCATE)');
    check(dbBytes(file));
    db.close();
    check(dbBytes(join(dir, 'listings.db')));
  });
});
