// The PostgreSQL schema, migration for migration the same as SQLite's (migrations.ts): version N means the same tables in both.
import type pg from 'pg';
import { SCHEMA_VERSION } from '../migrations.ts';
import { normalEmailsPg } from './normal-emails.ts';

/** A migration: SQL, or a function where SQL cannot say it (Unicode normal forms), run in the same transaction. */
export type PgMigration = string | ((c: pg.ClientBase) => Promise<void>);

export async function runPgMigration(c: pg.ClientBase, m: PgMigration): Promise<void> {
  if (typeof m === 'string') await c.query(m);
  else await m(c);
}

export const PG_MIGRATIONS: readonly PgMigration[] = [
  // 1: facilities, listings, photos, pricing rules, keys; and the change log every serving node follows
  `
  CREATE TABLE facilities (
    id text PRIMARY KEY,
    name text NOT NULL,
    currency text NOT NULL,
    rental_page_url text,
    imported_at text NOT NULL
  );
  CREATE TABLE pricing_rules (
    facility_id text NOT NULL REFERENCES facilities(id) ON DELETE CASCADE,
    min_occupancy double precision NOT NULL,
    adjust_pct double precision NOT NULL,
    PRIMARY KEY (facility_id, min_occupancy)
  );
  CREATE TABLE listings (
    id text PRIMARY KEY,
    facility_id text NOT NULL REFERENCES facilities(id) ON DELETE CASCADE,
    code text NOT NULL,
    position integer NOT NULL,
    active integer NOT NULL CHECK (active IN (0, 1)),
    title text NOT NULL,
    area_m2 double precision NOT NULL,
    width_m double precision NOT NULL,
    depth_m double precision NOT NULL,
    height_m double precision,
    description text NOT NULL,
    price_gross integer NOT NULL,
    price_period text NOT NULL,
    vat_rate double precision NOT NULL,
    dynamic_pricing integer NOT NULL CHECK (dynamic_pricing IN (0, 1)),
    total_units integer NOT NULL,
    free_units integer NOT NULL,
    min_rental_period text NOT NULL,
    notice_period text NOT NULL,
    deposit integer NOT NULL,
    UNIQUE (facility_id, code)
  );
  CREATE INDEX listings_by_facility ON listings (facility_id, active, position);
  CREATE TABLE photos (
    listing_id text NOT NULL REFERENCES listings(id) ON DELETE CASCADE,
    position integer NOT NULL,
    url text NOT NULL,
    caption text NOT NULL,
    width integer,
    height integer,
    PRIMARY KEY (listing_id, position)
  );
  CREATE TABLE api_keys (
    seq bigint GENERATED ALWAYS AS IDENTITY,
    id text PRIMARY KEY,
    facility_id text NOT NULL REFERENCES facilities(id),
    label text NOT NULL DEFAULT '',
    digest text NOT NULL UNIQUE,
    hint text NOT NULL,
    created_at text NOT NULL,
    revoked_at text,
    last_used_at text
  );
  CREATE INDEX api_keys_by_facility ON api_keys (facility_id);
  CREATE TABLE change_counter (
    singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
    version bigint NOT NULL
  );
  INSERT INTO change_counter (version) VALUES (0);
  CREATE TABLE changes (
    version bigint NOT NULL,
    facility_id text,
    key_id text
  );
  CREATE INDEX changes_by_version ON changes (version);
  `,
  // 2: snapshot versions (rollback protection) and per-key limits and origins
  `
  CREATE TABLE snapshot_versions (
    facility_id text PRIMARY KEY,
    version integer NOT NULL,
    content_digest text NOT NULL
  );
  ALTER TABLE api_keys ADD COLUMN rate_per_s double precision;
  ALTER TABLE api_keys ADD COLUMN burst integer;
  ALTER TABLE api_keys ADD COLUMN allowed_origins text NOT NULL DEFAULT '[]';
  `,
  // 3: a revision per facility, what each publish target holds, until when each signing key is needed there
  `
  ALTER TABLE facilities ADD COLUMN revision integer NOT NULL DEFAULT 0;
  CREATE TABLE snapshot_published (
    target text NOT NULL,
    facility_id text NOT NULL,
    revision integer NOT NULL,
    public_url text NOT NULL,
    version integer NOT NULL,
    content_digest text NOT NULL,
    kid text NOT NULL,
    generated_at text NOT NULL,
    expires_at text NOT NULL,
    PRIMARY KEY (target, facility_id)
  );
  CREATE TABLE snapshot_kids (
    target text NOT NULL,
    kid text NOT NULL,
    expires_at text NOT NULL,
    PRIMARY KEY (target, kid)
  );
  `,
  // 4: where a renter books or whom to contact
  `
  ALTER TABLE facilities ADD COLUMN booking_url text;
  ALTER TABLE facilities ADD COLUMN contact_email text;
  ALTER TABLE facilities ADD COLUMN contact_phone text;
  `,
  // 5: panel operators, their sessions (token digests only) and the audit log
  `
  CREATE TABLE operators (
    id text PRIMARY KEY,
    email text NOT NULL UNIQUE,
    password_hash text NOT NULL,
    created_at text NOT NULL,
    password_changed_at text NOT NULL
  );
  CREATE TABLE operator_sessions (
    digest text PRIMARY KEY,
    operator_id text NOT NULL REFERENCES operators(id) ON DELETE CASCADE,
    csrf text NOT NULL,
    created_at text NOT NULL,
    seen_at text NOT NULL
  );
  CREATE INDEX operator_sessions_by_operator ON operator_sessions (operator_id);
  CREATE TABLE audit_log (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    at text NOT NULL,
    actor text NOT NULL,
    action text NOT NULL,
    facility_id text,
    key_id text,
    detail text NOT NULL DEFAULT '{}'
  );
  `,
  // 6: failed panel logins, per account and per address (times compare as text, byte for byte)
  `
  CREATE TABLE login_failures (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    scope text NOT NULL CHECK (scope IN ('account', 'address')),
    subject text NOT NULL,
    at text COLLATE "C" NOT NULL
  );
  CREATE INDEX login_failures_by_subject ON login_failures (scope, subject, at);
  `,
  // 7: what the rental page shows beyond price; nested values are JSON text, as in SQLite
  `
  ALTER TABLE facilities ADD COLUMN address text;
  ALTER TABLE facilities ADD COLUMN geo_lat double precision;
  ALTER TABLE facilities ADD COLUMN geo_lng double precision;
  ALTER TABLE facilities ADD COLUMN timezone text;
  ALTER TABLE facilities ADD COLUMN office_hours text;
  ALTER TABLE facilities ADD COLUMN access_hours text;
  ALTER TABLE facilities ADD COLUMN amenities text NOT NULL DEFAULT '[]';
  ALTER TABLE facilities ADD COLUMN fees text NOT NULL DEFAULT '[]';
  ALTER TABLE facilities ADD COLUMN protection text;
  ALTER TABLE listings ADD COLUMN unit_type text;
  ALTER TABLE listings ADD COLUMN features text NOT NULL DEFAULT '[]';
  ALTER TABLE listings ADD COLUMN floor integer;
  ALTER TABLE listings ADD COLUMN door_width_m double precision;
  ALTER TABLE listings ADD COLUMN door_height_m double precision;
  ALTER TABLE listings ADD COLUMN promotions text NOT NULL DEFAULT '[]';
  `,
  // 8: operators' roles (those before roles were owners), two-factor login and logins waiting for their code
  `
  ALTER TABLE operators ADD COLUMN role text NOT NULL DEFAULT 'owner' CHECK (role IN ('viewer', 'manager', 'owner'));
  ALTER TABLE operators ADD COLUMN totp_secret text;
  ALTER TABLE operators ADD COLUMN totp_enabled_at text;
  ALTER TABLE operators ADD COLUMN totp_last_step bigint;
  ALTER TABLE operators ADD COLUMN recovery_codes text NOT NULL DEFAULT '[]';
  CREATE TABLE login_pending (
    digest text PRIMARY KEY,
    operator_id text NOT NULL REFERENCES operators(id) ON DELETE CASCADE,
    attempt bigint NOT NULL,
    end_others integer NOT NULL,
    created_at text NOT NULL
  );
  CREATE INDEX login_pending_by_operator ON login_pending (operator_id);
  `,
  // 9: a version counter per target and facility; each target it continues keeps the count it had
  `
  ALTER TABLE snapshot_versions DROP CONSTRAINT snapshot_versions_pkey;
  ALTER TABLE snapshot_versions ADD COLUMN target text NOT NULL DEFAULT '';
  INSERT INTO snapshot_versions (target, facility_id, version, content_digest)
    SELECT t.target, v.facility_id, v.version, v.content_digest
    FROM snapshot_versions v CROSS JOIN (SELECT DISTINCT target FROM snapshot_published) t;
  DELETE FROM snapshot_versions WHERE target = '';
  ALTER TABLE snapshot_versions ALTER COLUMN target DROP DEFAULT;
  ALTER TABLE snapshot_versions ADD PRIMARY KEY (target, facility_id);
  `,
  // 10: a partner reference on every key, unique within its facility, and clicks on rent links per day
  `
  ALTER TABLE api_keys ADD COLUMN ref text NOT NULL DEFAULT '';
  UPDATE api_keys SET ref = 'key-' || lower(substr(id, 5));
  CREATE UNIQUE INDEX api_keys_ref ON api_keys (facility_id, ref);
  CREATE TABLE referral_clicks (
    facility_id text NOT NULL,
    listing_code text NOT NULL,
    ref text NOT NULL,
    day text NOT NULL,
    clicks bigint NOT NULL,
    unique_visitors bigint NOT NULL,
    PRIMARY KEY (facility_id, listing_code, ref, day)
  );
  CREATE INDEX referral_clicks_by_day ON referral_clicks (day);
  `,
  // 11: webhook endpoints of keys, the outbox written with the change that causes each event, the promotion clock
  `
  CREATE TABLE webhook_endpoints (
    id text PRIMARY KEY,
    key_id text NOT NULL REFERENCES api_keys(id),
    facility_id text NOT NULL,
    url text NOT NULL,
    events text NOT NULL,
    secret text NOT NULL,
    previous_secret text,
    previous_until bigint,
    created_at text NOT NULL,
    disabled_at text,
    disabled_reason text,
    lease_until bigint NOT NULL DEFAULT 0,
    lease_by text
  );
  CREATE INDEX webhook_endpoints_by_facility ON webhook_endpoints (facility_id);
  CREATE TABLE webhook_outbox (
    seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    id text NOT NULL,
    endpoint_id text NOT NULL REFERENCES webhook_endpoints(id) ON DELETE CASCADE,
    subject text NOT NULL,
    type text NOT NULL,
    event text NOT NULL,
    body text,
    status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivered', 'failed')),
    attempts integer NOT NULL DEFAULT 0,
    next_at bigint NOT NULL,
    last_code integer,
    last_error text,
    last_at bigint,
    created_at bigint NOT NULL
  );
  CREATE INDEX webhook_outbox_queue ON webhook_outbox (endpoint_id, status, seq);
  CREATE INDEX webhook_outbox_subject ON webhook_outbox (endpoint_id, subject, status);
  CREATE TABLE webhook_clock (id integer PRIMARY KEY CHECK (id = 1), checked_until bigint NOT NULL);
  `,
  // 12: failed logins counted per account and address too ('pair'), so that failures from one place lock out that place
  // only
  `
  ALTER TABLE login_failures DROP CONSTRAINT login_failures_scope_check;
  ALTER TABLE login_failures ADD CONSTRAINT login_failures_scope_check CHECK (scope IN ('account', 'pair', 'address'));
  `,
  // 13: a listing's price and deposit up to the import's 10^12 minor units (integer stops at 2^31 - 1); fees, plans and
  // promotions are JSON text already
  `
  ALTER TABLE listings ALTER COLUMN price_gross TYPE bigint, ALTER COLUMN deposit TYPE bigint;
  `,
  // 14: the event that disabled its endpoint (a 410, the last retry) waits with the others for `webhooks enable`, as
  // delivery now leaves it; one left failed by an older program waits again
  `
  UPDATE webhook_outbox SET status = 'pending'
    WHERE status = 'failed' AND endpoint_id IN (SELECT id FROM webhook_endpoints WHERE disabled_at IS NOT NULL);
  `,
  // 15: failed logins counted per device cookie too ('device'), so that an operator's own browser has a count of its own
  `
  ALTER TABLE login_failures DROP CONSTRAINT login_failures_scope_check;
  ALTER TABLE login_failures ADD CONSTRAINT login_failures_scope_check
    CHECK (scope IN ('account', 'pair', 'address', 'device'));
  `,
  // 16: every ref a key has held (SQLite's 16: the refs now, those the audit log shows one key held, and refs in
  // counted clicks that no known key held, kept by no key)
  `
  CREATE TABLE key_refs (
    facility_id text NOT NULL,
    ref text NOT NULL,
    key_id text,
    PRIMARY KEY (facility_id, ref)
  );
  INSERT INTO key_refs (facility_id, ref, key_id) SELECT facility_id, ref, id FROM api_keys;
  INSERT INTO key_refs (facility_id, ref, key_id)
    SELECT facility_id, ref, CASE WHEN count(DISTINCT key_id) = 1 THEN min(key_id) END
    FROM (SELECT facility_id, key_id, detail::jsonb ->> 'ref' AS ref FROM audit_log
      WHERE action LIKE 'key.%' AND facility_id IS NOT NULL AND key_id IS NOT NULL) AS held
    WHERE ref IS NOT NULL GROUP BY facility_id, ref
    ON CONFLICT DO NOTHING;
  INSERT INTO key_refs (facility_id, ref, key_id) SELECT DISTINCT facility_id, ref, NULL FROM referral_clicks
    ON CONFLICT DO NOTHING;
  `,
  // 17: what the panel shows once (a new key, a webhook secret) on the page after its action, kept for that session
  `
  CREATE TABLE panel_shown_once (
    session_digest text NOT NULL REFERENCES operator_sessions(digest) ON DELETE CASCADE,
    subject text NOT NULL,
    value text NOT NULL,
    expires_at text NOT NULL,
    PRIMARY KEY (session_digest, subject)
  );
  CREATE INDEX panel_shown_once_by_expiry ON panel_shown_once (expires_at);
  `,
  // 18: whether a session was made with a two-factor code (SQLite's 18: the sessions before it count as made without)
  `
  ALTER TABLE operator_sessions ADD COLUMN two_factor integer NOT NULL DEFAULT 0 CHECK (two_factor IN (0, 1));
  `,
  // 19: operators' emails in their normal form (SQLite's 19: those that would share one, or hide a character, left)
  normalEmailsPg,
];

// Versioned together: a program knows the same number of migrations in both dialects.
if (PG_MIGRATIONS.length !== SCHEMA_VERSION) throw new Error('PostgreSQL and SQLite migrations differ in number');
