// The webhook outbox on either database: events queued (one pending per endpoint and subject), claimed by one node
// per endpoint, attempted in order, replayed, and a test event queued.
import { randomBytes } from 'node:crypto';
import { ListingsError } from '../errors.ts';
import type { ChangeEvent } from '../domain/webhook-events.ts';
import { auditSteps, endpointInUseSteps } from './webhook-endpoints.ts';
import { KEY_IN_USE, QUEUED_FOR } from './webhook-reads.ts';
import { deliverySteps, replayable, type Delivery } from './webhook-log.ts';
import { SKIP_LOCKED, sql, type Steps } from './steps.ts';

/** What a node sends for a claimed endpoint: its secrets (the previous one while a rotation lasts). */
export interface ClaimedEndpoint {
  id: string;
  url: string;
  secret: string;
  previous_secret: string | null;
  previous_until: number | null;
}

export interface Outgoing {
  seq: number;
  id: string;
  event: string;
  body: string | null;
  attempts: number;
  nextAt: number;
}

/** How an attempt ended: delivered, or to be tried again at `nextAt` (or after enable, when it disables the endpoint). */
export interface Attempt {
  status: 'pending' | 'delivered';
  at: number;
  nextAt: number;
  code: number | null;
  error: string | null;
  disable: string | null;
}

const newMessageId = () => `msg_${randomBytes(16).toString('hex')}`;

const INSERT = `INSERT INTO webhook_outbox (id, endpoint_id, subject, type, event, body, next_at, created_at)
  VALUES ($1, $2, $3, $4, $5, $6, $7, $7) RETURNING *`;

/**
 * Whether the endpoint has an event of the subject as of `at` or later (queued, sent or pending): it carries a Detail
 * with the change at `at` in it already.
 */
function* toldSinceSteps(endpointId: string, subject: string, at: number): Steps<boolean> {
  const rows = yield sql(
    'SELECT event FROM webhook_outbox WHERE endpoint_id = $1 AND subject = $2 AND created_at >= $3',
    endpointId,
    subject,
    at,
  );
  // A replay's row is as new as the replay, its event as old as the first: the event's own timestamp decides.
  return rows.some((r) => Date.parse((JSON.parse(r.event as string) as { timestamp: string }).timestamp) >= at);
}

/**
 * The `changed` of an event that replaces one not yet tried: what its type says it carries (a removed listing names no
 * field, an added one every field of its Detail), and for an update the fields either of the two changed.
 */
function coalescedChanged(type: string, ev: ChangeEvent, prior: readonly string[]): string[] {
  if (type === 'listing.removed') return [];
  if (type === 'listing.added') return Object.keys(ev.data.listing ?? {});
  return [...new Set([...prior, ...ev.changed])];
}

/**
 * Queues each event of a change at `now` for every endpoint of the facility that wants its type and was added by then
 * (an endpoint hears of changes made after it was added). Coalescing: an event not yet tried for the same endpoint and
 * subject is replaced by the newer one (an added listing stays `listing.added`; `changed` as `coalescedChanged` says),
 * so pending events per endpoint never exceed the facility's listings plus one. `unlessTold` (a promotion boundary's
 * events, queued after the fact): an endpoint already told of the subject as of `now` or later is not told again.
 */
export function* queueEventsSteps(
  facilityId: string,
  events: readonly ChangeEvent[],
  now: number,
  { unlessTold = false } = {},
): Steps<number> {
  if (events.length === 0) return 0;
  const endpoints = yield sql(
    `SELECT id, events FROM (${QUEUED_FOR}) w WHERE facility_id = $1 AND created_at <= $2`,
    facilityId,
    new Date(now).toISOString(),
  );
  let queued = 0;
  for (const e of endpoints) {
    const wanted = new Set(JSON.parse(e.events as string) as string[]);
    for (const ev of events) {
      if (!wanted.has(ev.type) || (unlessTold && (yield* toldSinceSteps(e.id as string, ev.subject, now)))) continue;
      const [old] = yield sql(
        `DELETE FROM webhook_outbox WHERE endpoint_id = $1 AND subject = $2 AND status = 'pending' AND body IS NULL
        RETURNING type, event`,
        e.id,
        ev.subject,
      );
      const prior = old ? (JSON.parse(old.event as string) as { data: { changed: string[] } }).data.changed : [];
      const type = old?.type === 'listing.added' && ev.type === 'listing.updated' ? 'listing.added' : ev.type;
      const changed = coalescedChanged(type, ev, prior);
      const event = { type, timestamp: new Date(now).toISOString(), data: { ...ev.data, changed } };
      yield sql(INSERT, newMessageId(), e.id, ev.subject, type, JSON.stringify(event), null, now);
      queued++;
    }
  }
  return queued;
}

/**
 * Which slots an endpoint's send takes: `retrying` once the first event it waits to send has failed or timed out (its
 * attempts since enable above 0), `answering` otherwise; the deliverer gives endpoints in retry at most a part of them.
 */
export type Lane = 'answering' | 'retrying';
export const LANES: readonly Lane[] = ['answering', 'retrying'];

/** A column of the first pending event of endpoint `e`: the one its sender tries next. */
const headColumn = (column: string) =>
  `(SELECT o.${column} FROM webhook_outbox o WHERE o.endpoint_id = e.id AND o.status = 'pending' ORDER BY o.seq LIMIT 1)`;
const IN_LANE: Record<Lane, string> = {
  answering: `${headColumn('attempts')} = 0`,
  retrying: `${headColumn('attempts')} > 0`,
};

/** Events whose bytes one claim fixes, per endpoint: more than a lease's sends. */
const FIXED_PER_CLAIM = 50;

/**
 * Leases up to `limit` endpoints whose oldest pending event is due, for this node alone until `leaseUntil`: the one
 * released longest ago first, so that endpoints with a backlog take turns. Fixes the bytes of their next events
 * (`bodyOf`) before any is sent: every retry and replay of an id sends the same bytes, and an event taken for sending is
 * no longer replaced by a newer one.
 */
export function* claimSteps(
  node: string,
  now: number,
  leaseUntil: number,
  limit: number,
  bodyOf: (event: string) => string,
  lane?: Lane,
): Steps<ClaimedEndpoint[]> {
  const rows = yield sql(
    `UPDATE webhook_endpoints SET lease_until = $1, lease_by = $2 WHERE id IN (
      SELECT e.id FROM webhook_endpoints e WHERE e.disabled_at IS NULL AND e.lease_until <= $3 AND ${KEY_IN_USE}
        AND ${headColumn('next_at')} <= $3 ${lane ? `AND ${IN_LANE[lane]}` : ''}
      ORDER BY e.lease_until, e.id LIMIT $4 ${SKIP_LOCKED})
    RETURNING id, url, secret, previous_secret, previous_until`,
    leaseUntil,
    node,
    now,
    limit,
  );
  for (const r of rows) {
    // Among the next events only: a failing endpoint's claims never fix more than these (coalescing keeps the rest).
    const unfixed = yield sql(
      `SELECT seq, event FROM (SELECT seq, event, body FROM webhook_outbox WHERE endpoint_id = $1 AND status = 'pending'
      ORDER BY seq LIMIT $2) next WHERE body IS NULL`,
      r.id,
      FIXED_PER_CLAIM,
    );
    for (const u of unfixed)
      yield sql('UPDATE webhook_outbox SET body = $2 WHERE seq = $1', u.seq, bodyOf(u.event as string));
  }
  return rows.map((r) => ({
    id: r.id as string,
    url: r.url as string,
    secret: r.secret as string,
    previous_secret: r.previous_secret as string | null,
    previous_until: r.previous_until === null ? null : Number(r.previous_until),
  }));
}

export function* headSteps(endpointId: string): Steps<Outgoing | undefined> {
  const [r] = yield sql(
    `SELECT seq, id, event, body, attempts, next_at FROM webhook_outbox WHERE endpoint_id = $1 AND status = 'pending'
    ORDER BY seq LIMIT 1`,
    endpointId,
  );
  if (!r) return undefined;
  const { id, event, body } = r as { id: string; event: string; body: string | null };
  return { seq: Number(r.seq), id, event, body, attempts: Number(r.attempts), nextAt: Number(r.next_at) };
}

export function* recordAttemptSteps(seq: number, endpointId: string, a: Attempt): Steps<void> {
  yield sql(
    `UPDATE webhook_outbox SET status = $2, attempts = attempts + 1, next_at = $3, last_code = $4, last_error = $5,
      last_at = $6 WHERE seq = $1`,
    seq,
    a.status,
    a.nextAt,
    a.code,
    a.error,
    a.at,
  );
  if (a.disable)
    yield sql(
      'UPDATE webhook_endpoints SET disabled_at = $2, disabled_reason = $3 WHERE id = $1',
      endpointId,
      new Date(a.at).toISOString(),
      a.disable,
    );
}

/** Gives the lease back at `now`: claims take the endpoint released longest ago first, so backlogs take turns. */
export function* releaseSteps(endpointId: string, node: string, now: number): Steps<void> {
  yield sql('UPDATE webhook_endpoints SET lease_until = $3 WHERE id = $1 AND lease_by = $2', endpointId, node, now);
}

/** Who holds a lease now (a node's `scope:pid:tag`), so a restarted node can free those of its scope's dead processes. */
export function* leaseHoldersSteps(now: number): Steps<{ id: string; node: string }[]> {
  const rows = yield sql('SELECT id, lease_by FROM webhook_endpoints WHERE lease_until > $1', now);
  return rows.map((r) => ({ id: r.id as string, node: r.lease_by as string }));
}

/**
 * When the earliest due event of an endpoint a claim may take at `now` falls, per lane (undefined: none pending). An
 * endpoint leased at `now` is left out: its holder sends its events, and the others' next look comes within their poll.
 */
export function* nextDueSteps(now: number): Steps<Record<Lane, number | undefined>> {
  const [r] = yield sql(
    `SELECT min(CASE WHEN a = 0 THEN h END) AS answering, min(CASE WHEN a > 0 THEN h END) AS retrying
    FROM (SELECT ${headColumn('next_at')} AS h, ${headColumn('attempts')} AS a
    FROM webhook_endpoints e WHERE e.disabled_at IS NULL AND e.lease_until <= $1 AND ${KEY_IN_USE}) heads`,
    now,
  );
  const at = (v: unknown) => (v === null || v === undefined ? undefined : Number(v));
  return { answering: at(r?.answering), retrying: at(r?.retrying) };
}

/**
 * Sends a delivery again as a new entry of the log, with the same `webhook-id` and the same bytes. Only one that was
 * sent and is finished (`replayable`): one pending goes out by itself, and a copy of one not tried yet, without bytes,
 * would be coalesced away with it.
 */
export function* replaySteps(seq: number, actor: string, now: number): Steps<Delivery> {
  const [r] = yield sql('SELECT * FROM webhook_outbox WHERE seq = $1', seq);
  if (!r) throw new ListingsError('unknown_delivery', `delivery ${seq}: no such delivery`);
  const endpoint = yield* endpointInUseSteps(r.endpoint_id as string, now);
  if (!replayable({ status: r.status as Delivery['status'], last_at: r.last_at as string | null }) || r.body === null)
    throw new ListingsError(
      'not_sent',
      `delivery ${seq}: not delivered yet (it goes out by itself, after enable if its endpoint is disabled; replay ` +
        'sends again a delivery that was delivered)',
    );
  const [row] = yield sql(INSERT, r.id, r.endpoint_id, r.subject, r.type, r.event, r.body, now);
  yield* auditSteps('webhook.replay', actor, endpoint, now, { endpoint: endpoint.id, delivery: seq, message: r.id });
  return yield* deliverySteps(Number(row!.seq));
}

/** Queues a `webhook.test` event for the endpoint: what a receiver checks its verification with. */
export function* testEventSteps(endpointId: string, actor: string, now: number): Steps<Delivery> {
  const endpoint = yield* endpointInUseSteps(endpointId, now);
  const event = { type: 'webhook.test', timestamp: new Date(now).toISOString(), data: { endpoint: endpoint.id } };
  const [row] = yield sql(
    INSERT,
    newMessageId(),
    endpoint.id,
    endpoint.id,
    event.type,
    JSON.stringify(event),
    null,
    now,
  );
  yield* auditSteps('webhook.test', actor, endpoint, now);
  return yield* deliverySteps(Number(row!.seq));
}

/**
 * Deliveries that ended (their last attempt) before `before` leave the log: the table holds what is pending, however
 * old, and a window of history counted from each delivery's end, not from when it was queued.
 */
export function* pruneSteps(before: number): Steps<void> {
  yield sql("DELETE FROM webhook_outbox WHERE status <> 'pending' AND last_at < $1", before);
}
