// The tables both stores hold, with their columns: the mirror and `db copy` move rows by these lists.

export const TABLES = {
  facilities: [
    'id',
    'name',
    'currency',
    'rental_page_url',
    'booking_url',
    'contact_email',
    'contact_phone',
    'imported_at',
    'revision',
    'address',
    'geo_lat',
    'geo_lng',
    'timezone',
    'office_hours',
    'access_hours',
    'amenities',
    'fees',
    'protection',
  ],
  pricing_rules: ['facility_id', 'min_occupancy', 'adjust_pct'],
  listings: [
    'id',
    'facility_id',
    'code',
    'position',
    'active',
    'title',
    'area_m2',
    'width_m',
    'depth_m',
    'height_m',
    'description',
    'price_gross',
    'price_period',
    'vat_rate',
    'dynamic_pricing',
    'total_units',
    'free_units',
    'min_rental_period',
    'notice_period',
    'deposit',
    'unit_type',
    'features',
    'floor',
    'door_width_m',
    'door_height_m',
    'promotions',
  ],
  photos: ['listing_id', 'position', 'url', 'caption', 'width', 'height'],
  api_keys: [
    'id',
    'facility_id',
    'label',
    'digest',
    'hint',
    'created_at',
    'revoked_at',
    'last_used_at',
    'rate_per_s',
    'burst',
    'allowed_origins',
    'ref',
  ],
  referral_clicks: ['facility_id', 'listing_code', 'ref', 'day', 'clicks', 'unique_visitors'],
  key_refs: ['facility_id', 'ref', 'key_id'],
  snapshot_versions: ['target', 'facility_id', 'version', 'content_digest'],
  snapshot_published: [
    'target',
    'facility_id',
    'revision',
    'public_url',
    'version',
    'content_digest',
    'kid',
    'generated_at',
    'expires_at',
  ],
  snapshot_kids: ['target', 'kid', 'expires_at'],
  operators: [
    'id',
    'email',
    'password_hash',
    'created_at',
    'password_changed_at',
    'role',
    'totp_secret',
    'totp_enabled_at',
    'totp_last_step',
    'recovery_codes',
  ],
  // Without its id: an id only names a try in flight, and PostgreSQL numbers the copies.
  login_failures: ['scope', 'subject', 'at'],
  audit_log: ['id', 'at', 'actor', 'action', 'facility_id', 'key_id', 'detail'],
  // Without the lease: a claim names a node of the old database.
  webhook_endpoints: [
    'id',
    'key_id',
    'facility_id',
    'url',
    'events',
    'secret',
    'previous_secret',
    'previous_until',
    'created_at',
    'disabled_at',
    'disabled_reason',
  ],
  webhook_clock: ['id', 'checked_until'],
} as const;

export type Table = keyof typeof TABLES;

/** What a serving node answers from, in an order that foreign keys accept. */
export const SERVED_TABLES = ['facilities', 'pricing_rules', 'listings', 'photos', 'api_keys'] as const;

/**
 * Everything but sessions (operators log in again, so a session ended on the old file stays ended; what a session was
 * to be shown once goes with it) and the webhook outbox (events still pending there are not carried over), in
 * foreign-key order. The webhook clock is: a promotion that starts or ends between the last run on the old file and
 * the first on the new one is still sent.
 */
export const ALL_TABLES = [
  ...SERVED_TABLES,
  'snapshot_versions',
  'snapshot_published',
  'snapshot_kids',
  'operators',
  'login_failures',
  'audit_log',
  'referral_clicks',
  'key_refs',
  'webhook_endpoints',
  'webhook_clock',
] as const;

/** Tables whose generated ids are copied as they are: the audit log keeps its ids, and so its order. */
export const KEPT_IDS: ReadonlySet<Table> = new Set(['audit_log']);

/** A bulk insert of JSON rows: one statement and one parameter for any number of rows. */
export function pgInsertFromJson(table: Table): string {
  const cols = TABLES[table].join(', ');
  const kept = KEPT_IDS.has(table) ? ' OVERRIDING SYSTEM VALUE' : '';
  return `INSERT INTO ${table} (${cols})${kept} SELECT ${cols} FROM json_populate_recordset(NULL::${table}, $1::json)`;
}
