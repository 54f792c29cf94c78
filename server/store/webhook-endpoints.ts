// Webhook endpoints of keys: added with a secret shown once, rotated (the old secret signs beside for a day), removed;
// each change with its audit row, on either database.
import { randomBytes } from 'node:crypto';
import { ListingsError } from '../errors.ts';
import type { AuditAction } from './audit.ts';
import { sql, type Row, type Steps } from './steps.ts';

/** How long a rotated-out secret keeps signing beside the new one. */
const ROTATION_OVERLAP_MS = 24 * 3_600_000;
/** Endpoints one key may have: a partner needs a few, not a fan-out. */
const ENDPOINTS_PER_KEY = 10;

export interface EndpointInfo {
  id: string;
  key_id: string;
  facility_id: string;
  url: string;
  events: string[];
  created_at: string;
  /**
   * Set when 410 Gone or the last retry disabled it, or its key was revoked (then when, with the reason `revoked_key`:
   * it receives nothing more, and enabling it is refused); `disabled_reason` says which.
   */
  disabled_at: string | null;
  disabled_reason: string | null;
  /** Until when the previous secret signs too (null: no rotation under way, or its 24 hours are over). */
  previous_until: string | null;
}

const newSecret = () => `whsec_${randomBytes(24).toString('base64')}`;

/** Endpoints with when their key was revoked (null: in use), which stops them whatever their own state. */
const ENDPOINTS = `SELECT e.*, (SELECT k.revoked_at FROM api_keys k WHERE k.id = e.key_id) AS key_revoked_at
  FROM webhook_endpoints e`;

/** A row of ENDPOINTS as it stands at `now`. */
function endpointOf(r: Row, now: number): EndpointInfo {
  // Kept in the row after the rotation's end (the sender compares it), but no longer a rotation under way.
  const until = r.previous_until === null || Number(r.previous_until) <= now ? null : Number(r.previous_until);
  const revoked = r.key_revoked_at as string | null;
  return {
    id: r.id as string,
    key_id: r.key_id as string,
    facility_id: r.facility_id as string,
    url: r.url as string,
    events: JSON.parse(r.events as string) as string[],
    created_at: r.created_at as string,
    disabled_at: revoked ?? (r.disabled_at as string | null),
    disabled_reason: revoked ? 'revoked_key' : (r.disabled_reason as string | null),
    previous_until: until === null ? null : new Date(until).toISOString(),
  };
}

export function* auditSteps(
  action: AuditAction,
  actor: string,
  e: EndpointInfo,
  now: number,
  detail: Record<string, unknown> = { endpoint: e.id, url: e.url },
): Steps<void> {
  yield sql(
    'INSERT INTO audit_log (at, actor, action, facility_id, key_id, detail) VALUES ($1, $2, $3, $4, $5, $6)',
    new Date(now).toISOString(),
    actor,
    action,
    e.facility_id,
    e.key_id,
    JSON.stringify(detail),
  );
}

export function unknownEndpoint(id: string): ListingsError {
  return new ListingsError('unknown_endpoint', `endpoint ${id}: no such webhook endpoint`);
}

export function* endpointSteps(id: string, now: number): Steps<EndpointInfo> {
  const [row] = yield sql(`${ENDPOINTS} WHERE e.id = $1`, id);
  if (!row) throw unknownEndpoint(id);
  return endpointOf(row, now);
}

/** The endpoint, refused when its key is revoked: a revoked key's endpoints receive nothing, tests and replays included. */
export function* endpointInUseSteps(id: string, now: number): Steps<EndpointInfo> {
  const endpoint = yield* endpointSteps(id, now);
  const [key] = yield sql('SELECT revoked_at FROM api_keys WHERE id = $1', endpoint.key_id);
  if (!key || key.revoked_at !== null)
    throw new ListingsError(
      'revoked_key',
      `endpoint ${id}: its key ${endpoint.key_id} is revoked (revoked_key): a revoked key's endpoints receive nothing`,
    );
  return endpoint;
}

export interface NewEndpoint {
  keyId: string;
  url: string;
  events: readonly string[];
}

export function* addEndpointSteps(
  opts: NewEndpoint,
  actor: string,
  now: number,
): Steps<{ endpoint: EndpointInfo; secret: string }> {
  const [key] = yield sql('SELECT facility_id, revoked_at FROM api_keys WHERE id = $1', opts.keyId);
  if (!key || key.revoked_at !== null)
    throw new ListingsError('unknown_key', `--key: ${opts.keyId} is not a key in use (see listings keys list)`);
  const [count] = yield sql('SELECT count(*) AS n FROM webhook_endpoints WHERE key_id = $1', opts.keyId);
  if (Number(count!.n) >= ENDPOINTS_PER_KEY)
    throw new ListingsError('too_many_endpoints', `--key: ${opts.keyId} has ${ENDPOINTS_PER_KEY} endpoints already`);
  const id = `whe_${randomBytes(10).toString('hex')}`;
  const secret = newSecret();
  yield sql(
    `INSERT INTO webhook_endpoints (id, key_id, facility_id, url, events, secret, created_at)
    VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    id,
    opts.keyId,
    key.facility_id,
    opts.url,
    JSON.stringify(opts.events),
    secret,
    new Date(now).toISOString(),
  );
  const endpoint = yield* endpointSteps(id, now);
  yield* auditSteps('webhook.add', actor, endpoint, now, { endpoint: id, url: opts.url, events: opts.events });
  return { endpoint, secret };
}

export function* listEndpointsSteps(keyId: string | undefined, now: number): Steps<EndpointInfo[]> {
  const rows = keyId
    ? yield sql(`${ENDPOINTS} WHERE e.key_id = $1 ORDER BY e.created_at, e.id`, keyId)
    : yield sql(`${ENDPOINTS} ORDER BY e.created_at, e.id`);
  return rows.map((r) => endpointOf(r, now));
}

export function* removeEndpointSteps(id: string, actor: string, now: number): Steps<EndpointInfo> {
  const endpoint = yield* endpointSteps(id, now);
  yield sql('DELETE FROM webhook_outbox WHERE endpoint_id = $1', id);
  yield sql('DELETE FROM webhook_endpoints WHERE id = $1', id);
  yield* auditSteps('webhook.remove', actor, endpoint, now);
  return endpoint;
}

/** A new secret; the current one keeps signing beside it for a day, so receivers can switch without a gap. */
export function* rotateSecretSteps(
  id: string,
  actor: string,
  now: number,
): Steps<{ endpoint: EndpointInfo; secret: string }> {
  yield* endpointSteps(id, now);
  const secret = newSecret();
  yield sql(
    'UPDATE webhook_endpoints SET previous_secret = secret, previous_until = $2, secret = $3 WHERE id = $1',
    id,
    now + ROTATION_OVERLAP_MS,
    secret,
  );
  const endpoint = yield* endpointSteps(id, now);
  yield* auditSteps('webhook.rotate', actor, endpoint, now);
  return { endpoint, secret };
}

/**
 * Delivers again after a 410 or the last retry: its pending events go out from the oldest (the one whose attempt
 * disabled it first), each on a fresh retry schedule, so `attempts` counts from 0 again.
 */
export function* enableEndpointSteps(id: string, actor: string, now: number): Steps<EndpointInfo> {
  yield* endpointInUseSteps(id, now);
  yield sql(
    "UPDATE webhook_outbox SET next_at = $2, attempts = 0 WHERE endpoint_id = $1 AND status = 'pending'",
    id,
    now,
  );
  yield sql('UPDATE webhook_endpoints SET disabled_at = NULL, disabled_reason = NULL WHERE id = $1', id);
  const endpoint = yield* endpointSteps(id, now);
  yield* auditSteps('webhook.enable', actor, endpoint, now);
  return endpoint;
}
