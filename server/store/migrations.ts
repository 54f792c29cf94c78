// The schema, as an ordered list of migrations; PRAGMA user_version records how many have run.
import type Database from 'better-sqlite3';
import { normalEmailsSqlite } from './normal-emails.ts';

/** A migration: SQL, or a function where SQL cannot say it (Unicode normal forms), run in the same transaction. */
export type Migration = string | ((db: Database.Database) => void);

export function runMigration(db: Database.Database, m: Migration): void {
  if (typeof m === 'string') db.exec(m);
  else m(db);
}

export const MIGRATIONS: readonly Migration[] = [
  // 1: facilities, listings, photos, pricing rules, keys
  `
  CREATE TABLE facilities (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    currency TEXT NOT NULL,
    rental_page_url TEXT,
    imported_at TEXT NOT NULL
  ) STRICT;
  CREATE TABLE pricing_rules (
    facility_id TEXT NOT NULL REFERENCES facilities(id) ON DELETE CASCADE,
    min_occupancy REAL NOT NULL,
    adjust_pct REAL NOT NULL,
    PRIMARY KEY (facility_id, min_occupancy)
  ) STRICT;
  CREATE TABLE listings (
    id TEXT PRIMARY KEY,
    facility_id TEXT NOT NULL REFERENCES facilities(id) ON DELETE CASCADE,
    code TEXT NOT NULL,
    position INTEGER NOT NULL,
    active INTEGER NOT NULL,
    title TEXT NOT NULL,
    area_m2 REAL NOT NULL,
    width_m REAL NOT NULL,
    depth_m REAL NOT NULL,
    height_m REAL,
    description TEXT NOT NULL,
    price_gross INTEGER NOT NULL,
    price_period TEXT NOT NULL,
    vat_rate REAL NOT NULL,
    dynamic_pricing INTEGER NOT NULL,
    total_units INTEGER NOT NULL,
    free_units INTEGER NOT NULL,
    min_rental_period TEXT NOT NULL,
    notice_period TEXT NOT NULL,
    deposit INTEGER NOT NULL,
    UNIQUE (facility_id, code)
  ) STRICT;
  CREATE INDEX listings_by_facility ON listings (facility_id, active, position);
  CREATE TABLE photos (
    listing_id TEXT NOT NULL REFERENCES listings(id) ON DELETE CASCADE,
    position INTEGER NOT NULL,
    url TEXT NOT NULL,
    caption TEXT NOT NULL,
    width INTEGER,
    height INTEGER,
    PRIMARY KEY (listing_id, position)
  ) STRICT;
  CREATE TABLE api_keys (
    id TEXT PRIMARY KEY,
    facility_id TEXT NOT NULL REFERENCES facilities(id),
    label TEXT NOT NULL DEFAULT '',
    digest TEXT NOT NULL UNIQUE,
    hint TEXT NOT NULL,
    created_at TEXT NOT NULL,
    revoked_at TEXT,
    last_used_at TEXT
  ) STRICT;
  CREATE INDEX api_keys_by_facility ON api_keys (facility_id);
  `,
  // 2: snapshot versions (rollback protection) and per-key limits and origins
  `
  CREATE TABLE snapshot_versions (
    facility_id TEXT PRIMARY KEY,
    version INTEGER NOT NULL,
    content_digest TEXT NOT NULL
  ) STRICT;
  ALTER TABLE api_keys ADD COLUMN rate_per_s REAL;
  ALTER TABLE api_keys ADD COLUMN burst INTEGER;
  ALTER TABLE api_keys ADD COLUMN allowed_origins TEXT NOT NULL DEFAULT '[]';
  `,
  // 3: a revision per facility that every import of it raises, what each publish target holds (to publish only what
  // changed, without reading unchanged facilities) and until when each signing key is needed there
  `
  ALTER TABLE facilities ADD COLUMN revision INTEGER NOT NULL DEFAULT 0;
  CREATE TABLE snapshot_published (
    target TEXT NOT NULL,
    facility_id TEXT NOT NULL,
    revision INTEGER NOT NULL,
    public_url TEXT NOT NULL,
    version INTEGER NOT NULL,
    content_digest TEXT NOT NULL,
    kid TEXT NOT NULL,
    generated_at TEXT NOT NULL,
    expires_at TEXT NOT NULL,
    PRIMARY KEY (target, facility_id)
  ) STRICT;
  CREATE TABLE snapshot_kids (
    target TEXT NOT NULL,
    kid TEXT NOT NULL,
    expires_at TEXT NOT NULL,
    PRIMARY KEY (target, kid)
  ) STRICT;
  `,
  // 4: where a renter books or whom to contact (the rental page's Rent action)
  `
  ALTER TABLE facilities ADD COLUMN booking_url TEXT;
  ALTER TABLE facilities ADD COLUMN contact_email TEXT;
  ALTER TABLE facilities ADD COLUMN contact_phone TEXT;
  `,
  // 5: the operators who may log in to the panel, their sessions (token digests only) and the audit log
  `
  CREATE TABLE operators (
    id TEXT PRIMARY KEY,
    email TEXT NOT NULL UNIQUE,
    password_hash TEXT NOT NULL,
    created_at TEXT NOT NULL,
    password_changed_at TEXT NOT NULL
  ) STRICT;
  CREATE TABLE operator_sessions (
    digest TEXT PRIMARY KEY,
    operator_id TEXT NOT NULL REFERENCES operators(id) ON DELETE CASCADE,
    csrf TEXT NOT NULL,
    created_at TEXT NOT NULL,
    seen_at TEXT NOT NULL
  ) STRICT;
  CREATE INDEX operator_sessions_by_operator ON operator_sessions (operator_id);
  CREATE TABLE audit_log (
    id INTEGER PRIMARY KEY,
    at TEXT NOT NULL,
    actor TEXT NOT NULL,
    action TEXT NOT NULL,
    facility_id TEXT,
    key_id TEXT,
    detail TEXT NOT NULL DEFAULT '{}'
  ) STRICT;
  `,
  // 6: failed panel logins, per account and per address, so the limits hold across panels and restarts
  `
  CREATE TABLE login_failures (
    id INTEGER PRIMARY KEY,
    scope TEXT NOT NULL CHECK (scope IN ('account', 'address')),
    subject TEXT NOT NULL,
    at TEXT NOT NULL
  ) STRICT;
  CREATE INDEX login_failures_by_subject ON login_failures (scope, subject, at);
  `,
  // 7: what the rental page shows beyond price; nested values are JSON text, built and read by store/rows.ts
  `
  ALTER TABLE facilities ADD COLUMN address TEXT;
  ALTER TABLE facilities ADD COLUMN geo_lat REAL;
  ALTER TABLE facilities ADD COLUMN geo_lng REAL;
  ALTER TABLE facilities ADD COLUMN timezone TEXT;
  ALTER TABLE facilities ADD COLUMN office_hours TEXT;
  ALTER TABLE facilities ADD COLUMN access_hours TEXT;
  ALTER TABLE facilities ADD COLUMN amenities TEXT NOT NULL DEFAULT '[]';
  ALTER TABLE facilities ADD COLUMN fees TEXT NOT NULL DEFAULT '[]';
  ALTER TABLE facilities ADD COLUMN protection TEXT;
  ALTER TABLE listings ADD COLUMN unit_type TEXT;
  ALTER TABLE listings ADD COLUMN features TEXT NOT NULL DEFAULT '[]';
  ALTER TABLE listings ADD COLUMN floor INTEGER;
  ALTER TABLE listings ADD COLUMN door_width_m REAL;
  ALTER TABLE listings ADD COLUMN door_height_m REAL;
  ALTER TABLE listings ADD COLUMN promotions TEXT NOT NULL DEFAULT '[]';
  `,
  // 8: operators' roles (those before roles were owners), two-factor login (the TOTP secret, the last time step used,
  // recovery-code digests as a JSON array) and logins waiting for their code
  `
  ALTER TABLE operators ADD COLUMN role TEXT NOT NULL DEFAULT 'owner' CHECK (role IN ('viewer', 'manager', 'owner'));
  ALTER TABLE operators ADD COLUMN totp_secret TEXT;
  ALTER TABLE operators ADD COLUMN totp_enabled_at TEXT;
  ALTER TABLE operators ADD COLUMN totp_last_step INTEGER;
  ALTER TABLE operators ADD COLUMN recovery_codes TEXT NOT NULL DEFAULT '[]';
  CREATE TABLE login_pending (
    digest TEXT PRIMARY KEY,
    operator_id TEXT NOT NULL REFERENCES operators(id) ON DELETE CASCADE,
    attempt INTEGER NOT NULL,
    end_others INTEGER NOT NULL,
    created_at TEXT NOT NULL
  ) STRICT;
  CREATE INDEX login_pending_by_operator ON login_pending (operator_id);
  `,
  // 9: a version counter per target and facility, so that a first export into an empty folder is its version 1 (each
  // target it continues already keeps the count it had, as the publisher also reads the target's own pointer)
  `
  CREATE TABLE snapshot_versions_by_target (
    target TEXT NOT NULL,
    facility_id TEXT NOT NULL,
    version INTEGER NOT NULL,
    content_digest TEXT NOT NULL,
    PRIMARY KEY (target, facility_id)
  ) STRICT;
  INSERT INTO snapshot_versions_by_target (target, facility_id, version, content_digest)
    SELECT t.target, v.facility_id, v.version, v.content_digest
    FROM snapshot_versions v CROSS JOIN (SELECT DISTINCT target FROM snapshot_published) t;
  DROP TABLE snapshot_versions;
  ALTER TABLE snapshot_versions_by_target RENAME TO snapshot_versions;
  `,
  // 10: a partner reference on every key, unique within its facility (keys made before it take one from their id),
  // and clicks on rent links counted per facility, listing, ref and day
  `
  ALTER TABLE api_keys ADD COLUMN ref TEXT NOT NULL DEFAULT '';
  UPDATE api_keys SET ref = 'key-' || lower(substr(id, 5));
  CREATE UNIQUE INDEX api_keys_ref ON api_keys (facility_id, ref);
  CREATE TABLE referral_clicks (
    facility_id TEXT NOT NULL,
    listing_code TEXT NOT NULL,
    ref TEXT NOT NULL,
    day TEXT NOT NULL,
    clicks INTEGER NOT NULL,
    unique_visitors INTEGER NOT NULL,
    PRIMARY KEY (facility_id, listing_code, ref, day)
  ) STRICT;
  CREATE INDEX referral_clicks_by_day ON referral_clicks (day);
  `,
  // 11: webhook endpoints of keys (secrets kept to sign with; the previous one signs beside until its time), the
  // outbox written with the change that causes each event, and how far promotion boundaries have been sent
  `
  CREATE TABLE webhook_endpoints (
    id TEXT PRIMARY KEY,
    key_id TEXT NOT NULL REFERENCES api_keys(id),
    facility_id TEXT NOT NULL,
    url TEXT NOT NULL,
    events TEXT NOT NULL,
    secret TEXT NOT NULL,
    previous_secret TEXT,
    previous_until INTEGER,
    created_at TEXT NOT NULL,
    disabled_at TEXT,
    disabled_reason TEXT,
    lease_until INTEGER NOT NULL DEFAULT 0,
    lease_by TEXT
  ) STRICT;
  CREATE INDEX webhook_endpoints_by_facility ON webhook_endpoints (facility_id);
  CREATE TABLE webhook_outbox (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    id TEXT NOT NULL,
    endpoint_id TEXT NOT NULL REFERENCES webhook_endpoints(id) ON DELETE CASCADE,
    subject TEXT NOT NULL,
    type TEXT NOT NULL,
    event TEXT NOT NULL,
    body TEXT,
    status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivered', 'failed')),
    attempts INTEGER NOT NULL DEFAULT 0,
    next_at INTEGER NOT NULL,
    last_code INTEGER,
    last_error TEXT,
    last_at INTEGER,
    created_at INTEGER NOT NULL
  ) STRICT;
  CREATE INDEX webhook_outbox_queue ON webhook_outbox (endpoint_id, status, seq);
  CREATE INDEX webhook_outbox_subject ON webhook_outbox (endpoint_id, subject, status);
  CREATE TABLE webhook_clock (id INTEGER PRIMARY KEY CHECK (id = 1), checked_until INTEGER NOT NULL) STRICT;
  `,
  // 12: failed logins counted per account and address too ('pair'), so that failures from one place lock out that place
  // only; SQLite changes a CHECK by copying the table
  `
  CREATE TABLE login_failures_12 (
    id INTEGER PRIMARY KEY,
    scope TEXT NOT NULL CHECK (scope IN ('account', 'pair', 'address')),
    subject TEXT NOT NULL,
    at TEXT NOT NULL
  ) STRICT;
  INSERT INTO login_failures_12 (id, scope, subject, at) SELECT id, scope, subject, at FROM login_failures;
  DROP TABLE login_failures;
  ALTER TABLE login_failures_12 RENAME TO login_failures;
  CREATE INDEX login_failures_by_subject ON login_failures (scope, subject, at);
  `,
  // 13: nothing to change: an INTEGER column holds 64 bits, so a price and a deposit up to 10^12 fit already (PostgreSQL
  // widens its columns to bigint)
  `
  SELECT 1;
  `,
  // 14: the event that disabled its endpoint (a 410, the last retry) waits with the others for `webhooks enable`, as
  // delivery now leaves it; one left failed by an older program waits again
  `
  UPDATE webhook_outbox SET status = 'pending'
    WHERE status = 'failed' AND endpoint_id IN (SELECT id FROM webhook_endpoints WHERE disabled_at IS NOT NULL);
  `,
  // 15: failed logins counted per device cookie too ('device'), so that an operator's own browser has a count of its own
  `
  CREATE TABLE login_failures_15 (
    id INTEGER PRIMARY KEY,
    scope TEXT NOT NULL CHECK (scope IN ('account', 'pair', 'address', 'device')),
    subject TEXT NOT NULL,
    at TEXT NOT NULL
  ) STRICT;
  INSERT INTO login_failures_15 (id, scope, subject, at) SELECT id, scope, subject, at FROM login_failures;
  DROP TABLE login_failures;
  ALTER TABLE login_failures_15 RENAME TO login_failures;
  CREATE INDEX login_failures_by_subject ON login_failures (scope, subject, at);
  `,
  // 16: every ref a key has held, so that a ref given up stays its key's within the facility (clicks counted under it
  // keep meaning one partner); from the keys' refs now, the refs the audit log shows one key held, and refs in counted
  // clicks that no known key held, kept by no key (key_id NULL): refused to every key
  `
  CREATE TABLE key_refs (
    facility_id TEXT NOT NULL,
    ref TEXT NOT NULL,
    key_id TEXT,
    PRIMARY KEY (facility_id, ref)
  ) STRICT;
  INSERT INTO key_refs (facility_id, ref, key_id) SELECT facility_id, ref, id FROM api_keys;
  INSERT OR IGNORE INTO key_refs (facility_id, ref, key_id)
    SELECT facility_id, ref, CASE WHEN count(DISTINCT key_id) = 1 THEN min(key_id) END
    FROM (SELECT facility_id, key_id, CASE WHEN json_valid(detail) THEN detail ->> '$.ref' END AS ref FROM audit_log
      WHERE action LIKE 'key.%' AND facility_id IS NOT NULL AND key_id IS NOT NULL)
    WHERE ref IS NOT NULL GROUP BY facility_id, ref;
  INSERT OR IGNORE INTO key_refs (facility_id, ref, key_id) SELECT DISTINCT facility_id, ref, NULL FROM referral_clicks;
  `,
  // 17: what the panel shows once (a new key, a webhook secret) on the page after its action, kept for that session
  `
  CREATE TABLE panel_shown_once (
    session_digest TEXT NOT NULL REFERENCES operator_sessions(digest) ON DELETE CASCADE,
    subject TEXT NOT NULL,
    value TEXT NOT NULL,
    expires_at TEXT NOT NULL,
    PRIMARY KEY (session_digest, subject)
  ) STRICT;
  CREATE INDEX panel_shown_once_by_expiry ON panel_shown_once (expires_at);
  `,
  // 18: whether a session was made with a two-factor code; the sessions before it count as made without one, so an
  // account with two-factor logs in again with its code
  `
  ALTER TABLE operator_sessions ADD COLUMN two_factor INTEGER NOT NULL DEFAULT 0 CHECK (two_factor IN (0, 1));
  `,
  // 19: operators' emails in their normal form (NFKC, then lower case); those that would share one are left as they
  // were, and so is one holding an invisible character, each with an operator.email_kept row in the audit log
  normalEmailsSqlite,
];

export const SCHEMA_VERSION = MIGRATIONS.length;
