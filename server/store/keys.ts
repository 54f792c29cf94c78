// Keys in the store: only the SHA-256 digest of a key is ever written; the key itself is returned once, at creation.
import { createHash } from 'node:crypto';
import { ListingsError } from '../errors.ts';
import { digestOf, generateKey, hintOf, keyPattern, newKeyId, type KeyRejection } from '../domain/keys.ts';
import { checkRef, defaultRef, refTaken } from '../domain/key-ref.ts';
import { checkLabel } from '../domain/key-limits.ts';
import type { Db } from './db.ts';
import { facilityById } from './facilities.ts';
import { statementsFor } from './statements.ts';

export interface KeyRow {
  id: string;
  facility_id: string;
  label: string;
  digest: string;
  hint: string;
  created_at: string;
  revoked_at: string | null;
  last_used_at: string | null;
  rate_per_s: number | null;
  burst: number | null;
  allowed_origins: string;
  /** The partner's reference: what clicks on its rent links are counted under. */
  ref: string;
}

/** What `keys list` shows: never the digest. */
export type KeyInfo = Omit<KeyRow, 'digest' | 'allowed_origins'> & { allowed_origins: string[] };

export interface KeyLimits {
  rate_per_s?: number | null;
  burst?: number | null;
  allowed_origins?: string[];
}

/** What an operator may change on a key: its limits, label and ref. */
export type KeyChanges = KeyLimits & { label?: string; ref?: string };

/** A new key: its facility, and what the operator chose (a ref made from the label or id when none is given). */
export type NewKeyOptions = { facilityId: string; label?: string; prefix: string; ref?: string } & KeyLimits;

/**
 * The rate limit a key actually gets: its own rate and burst where set, the server's default for the part that is
 * not (a rate alone gets a 5-second burst).
 */
const stmts = statementsFor((db) => ({
  insert:
    db.prepare(`INSERT INTO api_keys (id, facility_id, label, digest, hint, created_at, rate_per_s, burst, allowed_origins, ref)
    VALUES (@id, @facility_id, @label, @digest, @hint, @created_at, @rate_per_s, @burst, @allowed_origins, @ref)`),
  taken: db
    .prepare<{ facility: string; key: string }, string>(
      `SELECT ref FROM api_keys WHERE facility_id = @facility AND id <> @key
        UNION SELECT ref FROM key_refs WHERE facility_id = @facility AND key_id IS NOT @key`,
    )
    .pluck(),
  hold: db.prepare('INSERT INTO key_refs (facility_id, ref, key_id) VALUES (?, ?, ?) ON CONFLICT DO NOTHING'),
  unrevokedRefs: db
    .prepare<[string], string>('SELECT ref FROM api_keys WHERE facility_id = ? AND revoked_at IS NULL')
    .pluck(),
  byDigest: db.prepare<[string], KeyRow>('SELECT * FROM api_keys WHERE digest = ?'),
  // What an answer to a key depends on, for every key (its last use left out: it moves on every request).
  answered: db
    .prepare<[], string | null>(
      `SELECT group_concat(id || ' ' || ifnull(revoked_at, '-') || ' ' || ifnull(rate_per_s, '-') || ' ' ||
        ifnull(burst, '-') || ' ' || allowed_origins || ' ' || ref, char(10)) FROM (SELECT * FROM api_keys ORDER BY id)`,
    )
    .pluck(),
  byId: db.prepare<[string], KeyRow>('SELECT * FROM api_keys WHERE id = ?'),
  // rowid breaks ties in creation order: keys created within one millisecond keep the order they were made in.
  all: db.prepare<[], KeyRow>('SELECT * FROM api_keys ORDER BY created_at, rowid'),
  byFacility: db.prepare<[string], KeyRow>('SELECT * FROM api_keys WHERE facility_id = ? ORDER BY created_at, rowid'),
  revoke: db.prepare('UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL'),
  touch: db.prepare(
    `UPDATE api_keys SET last_used_at = @at WHERE id = @id AND (last_used_at IS NULL OR last_used_at < @at)`,
  ),
  update: db.prepare(`UPDATE api_keys SET rate_per_s = @rate_per_s, burst = @burst, allowed_origins = @allowed_origins,
    label = @label, ref = @ref WHERE id = @id`),
}));

/**
 * A row's key without its digest, as one literal: a rest-and-spread clone gives rows whose columns mix null and values
 * a hidden class each, and the API's reads of a cached key's fields turn megamorphic.
 */
export function infoOf(row: KeyRow): KeyInfo {
  return {
    id: row.id,
    facility_id: row.facility_id,
    label: row.label,
    hint: row.hint,
    created_at: row.created_at,
    revoked_at: row.revoked_at,
    last_used_at: row.last_used_at,
    rate_per_s: row.rate_per_s,
    burst: row.burst,
    allowed_origins: JSON.parse(row.allowed_origins) as string[],
    ref: row.ref,
  };
}

/**
 * A new key and its row (both stores write it); the key itself is never stored. `taken`: the refs the facility's
 * keys hold and have held, and those no known key held (key_refs).
 */
export function newKeyRow(opts: NewKeyOptions, taken: ReadonlySet<string>, now = new Date()) {
  const key = generateKey(opts.prefix);
  const id = newKeyId();
  const label = checkLabel(opts.label ?? '');
  const ref = opts.ref === undefined ? defaultRef(label, id, taken) : checkRef(opts.ref);
  if (taken.has(ref)) throw refTaken(ref, opts.facilityId);
  const row = {
    id,
    facility_id: opts.facilityId,
    label,
    digest: digestOf(key),
    hint: hintOf(key),
    created_at: now.toISOString(),
    rate_per_s: opts.rate_per_s ?? null,
    burst: opts.burst ?? null,
    allowed_origins: JSON.stringify(opts.allowed_origins ?? []),
    ref,
  };
  return { key, row };
}

export function unknownFacility(id: string): ListingsError {
  return new ListingsError('unknown_facility', `facility "${id}" does not exist: import it first`);
}

export function unknownKey(id: string): ListingsError {
  return new ListingsError('unknown_key', `no key with id "${id}"`);
}

/** An edit of a revoked key: refused, so that what the audit log shows of a revoked key is how it was when revoked. */
export function keyRevoked(key: Pick<KeyInfo, 'id' | 'revoked_at'>): ListingsError {
  return new ListingsError(
    'key_revoked',
    `key ${key.id} was revoked at ${key.revoked_at}: a revoked key stays as it was revoked; make a new one`,
  );
}

export function createKey(db: Db, opts: NewKeyOptions, now = new Date()) {
  if (!facilityById(db, opts.facilityId)) throw unknownFacility(opts.facilityId);
  const s = stmts(db);
  // IMMEDIATE: the refs read and the insert under one write lock, so a commit between them cannot make the upgrade fail.
  return db
    .transaction(() => {
      const { key, row } = newKeyRow(opts, new Set(s.taken.all({ facility: opts.facilityId, key: '' })), now);
      s.insert.run(row);
      s.hold.run(row.facility_id, row.ref, row.id);
      return { key, info: infoOf({ ...row, revoked_at: null, last_used_at: null }) };
    })
    .immediate();
}

/** A digest of what every key's answers depend on: equal digests, no key was made, revoked or changed in between. */
export function keysDigest(db: Db): string {
  return createHash('sha256')
    .update(stmts(db).answered.get() ?? '')
    .digest('base64url');
}

/** The refs clicks may be counted under: those of the facility's keys that are not revoked. */
export function unrevokedRefs(db: Db, facilityId: string): ReadonlySet<string> {
  return new Set(stmts(db).unrevokedRefs.all(facilityId));
}

export function listKeys(db: Db, facilityId?: string): KeyInfo[] {
  const s = stmts(db);
  return (facilityId ? s.byFacility.all(facilityId) : s.all.all()).map(infoOf);
}

export function keyById(db: Db, id: string): KeyInfo | undefined {
  const row = stmts(db).byId.get(id);
  return row && infoOf(row);
}

/** Revokes the key; `changed` is false when it was revoked already (its first revocation stands, and is the one audited). */
export function revokeKeyOnce(db: Db, id: string, now = new Date()): { info: KeyInfo; changed: boolean } {
  const s = stmts(db);
  const row = s.byId.get(id);
  if (!row) throw unknownKey(id);
  const changed = s.revoke.run(now.toISOString(), id).changes === 1;
  return { info: infoOf(s.byId.get(id)!), changed };
}

export const revokeKey = (db: Db, id: string, now = new Date()): KeyInfo => revokeKeyOnce(db, id, now).info;

export function updateKey(db: Db, id: string, changes: KeyChanges): KeyInfo {
  const s = stmts(db);
  return db
    .transaction(() => {
      const row = s.byId.get(id);
      if (!row) throw unknownKey(id);
      const changed = changedKeyRow(row, changes, new Set(s.taken.all({ facility: row.facility_id, key: id })));
      s.update.run(changed);
      s.hold.run(row.facility_id, changed.ref, id);
      return infoOf(s.byId.get(id)!);
    })
    .immediate();
}

/**
 * The columns `keys edit` changes, with what it leaves as it was (both stores write them). `taken`: the refs the
 * facility's other keys hold or have held, and those no known key held (key_refs); the key's own old refs are its to
 * take back.
 */
export function changedKeyRow(row: KeyRow, changes: KeyChanges, taken: ReadonlySet<string>) {
  if (row.revoked_at !== null) throw keyRevoked(row);
  const ref = changes.ref === undefined ? row.ref : checkRef(changes.ref);
  if (ref !== row.ref && taken.has(ref)) throw refTaken(ref, row.facility_id);
  return {
    id: row.id,
    ref,
    label: changes.label === undefined ? row.label : checkLabel(changes.label),
    rate_per_s: changes.rate_per_s === undefined ? row.rate_per_s : changes.rate_per_s,
    burst: changes.burst === undefined ? row.burst : changes.burst,
    allowed_origins:
      changes.allowed_origins === undefined ? row.allowed_origins : JSON.stringify(changes.allowed_origins),
  };
}

export type Verification = { ok: true; key: KeyInfo } | { ok: false; reason: KeyRejection };

/** key -> its facility, or why not. Looks up the digest only; the key itself never reaches SQL. */
export function verifyKey(db: Db, presented: string | undefined, prefix: string): Verification {
  if (presented === undefined || presented === '') return { ok: false, reason: 'missing_api_key' };
  if (!keyPattern(prefix).test(presented)) return { ok: false, reason: 'invalid_api_key' };
  const row = stmts(db).byDigest.get(digestOf(presented));
  if (!row) return { ok: false, reason: 'invalid_api_key' };
  if (row.revoked_at !== null) return { ok: false, reason: 'revoked_api_key' };
  return { ok: true, key: infoOf(row) };
}

/** Writes many last-use times in one transaction (the server coalesces them in memory first). */
export function recordLastUse(db: Db, uses: ReadonlyMap<string, Date>, { waitForLock = true } = {}): void {
  if (uses.size === 0) return;
  const s = stmts(db);
  // Without waitForLock, a database another process is writing to throws SQLITE_BUSY at once instead of waiting.
  const busyTimeout = waitForLock ? undefined : db.pragma('busy_timeout', { simple: true });
  if (!waitForLock) db.pragma('busy_timeout = 0');
  try {
    db.transaction(() => {
      for (const [id, at] of uses) s.touch.run({ at: at.toISOString(), id });
    })();
  } finally {
    if (!waitForLock) db.pragma(`busy_timeout = ${busyTimeout}`);
  }
}
