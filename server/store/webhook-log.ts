// The delivery log the CLI and the panel show: the newest deliveries, and above them the one at the head of each
// endpoint's queue when it is older than those, since it holds up every delivery behind it.
import { sql, type Row, type Steps } from './steps.ts';
import { KEY_IN_USE } from './webhook-reads.ts';

export interface Delivery {
  /** The delivery's number (`webhooks replay` takes it); `message_id` is the `webhook-id` header. */
  id: number;
  message_id: string;
  endpoint_id: string;
  type: string;
  subject: string;
  status: 'pending' | 'delivered' | 'failed';
  /** Tries since it was queued, or since `webhooks enable` gave it a fresh schedule. */
  attempts: number;
  /**
   * When it is tried next: null once delivered, while its endpoint is disabled (it waits for enable), and while it
   * waits behind an earlier delivery (`waiting_for`).
   */
  next_at: string | null;
  /** The delivery first in its endpoint's line that this pending one waits for (null: it is first, or not pending). */
  waiting_for: number | null;
  last_code: number | null;
  last_error: string | null;
  last_at: string | null;
  created_at: string;
}

/**
 * Whether `webhooks replay` (and the panel's Replay) takes the delivery: one that was sent and is finished. One still
 * pending, tried or not, goes out by itself (on its retry, or after enable): a replay would only send it twice.
 */
export const replayable = (d: Pick<Delivery, 'status' | 'last_at'>): boolean =>
  d.status !== 'pending' && d.last_at !== null;

/** The deliveries shown, and how many more the log holds. */
export interface DeliveryLog {
  shown: Delivery[];
  hidden: number;
}

const iso = (ms: unknown) => (ms === null ? null : new Date(Number(ms)).toISOString());

/** The first pending delivery of the endpoint the SQL expression names: the one its sender tries. */
const headOf = (endpoint: string) =>
  `(SELECT min(p.seq) FROM webhook_outbox p WHERE p.endpoint_id = ${endpoint} AND p.status = 'pending')`;

/** Each delivery with whether its endpoint is stopped (disabled, or its key revoked) and its queue's head. */
const DELIVERIES = `SELECT o.*, ${headOf('o.endpoint_id')} AS head,
    (e.disabled_at IS NOT NULL OR NOT ${KEY_IN_USE}) AS stopped
  FROM webhook_outbox o JOIN webhook_endpoints e ON e.id = o.endpoint_id`;

/** A row of DELIVERIES as the log shows it. */
function deliveryOf(r: Row): Delivery {
  const status = r.status as Delivery['status'];
  const head = r.head === null ? null : Number(r.head);
  const waitingFor = status === 'pending' && head !== null && head !== Number(r.seq) ? head : null;
  // A stopped endpoint's pending deliveries have no next try: they wait for enable, or (a revoked key) for nothing.
  const stopped = r.stopped === true || Number(r.stopped) === 1;
  return {
    id: Number(r.seq),
    message_id: r.id as string,
    endpoint_id: r.endpoint_id as string,
    type: r.type as string,
    subject: r.subject as string,
    status,
    attempts: Number(r.attempts),
    next_at: status === 'pending' && !stopped && waitingFor === null ? iso(r.next_at) : null,
    waiting_for: waitingFor,
    last_code: r.last_code === null ? null : Number(r.last_code),
    last_error: r.last_error as string | null,
    last_at: iso(r.last_at),
    created_at: iso(r.created_at)!,
  };
}

export function* deliverySteps(seq: number): Steps<Delivery> {
  return (yield* findDeliverySteps(seq))!;
}

/** One delivery by its number, or undefined for a number the log does not hold. */
export function* findDeliverySteps(seq: number): Steps<Delivery | undefined> {
  const [row] = yield sql(`${DELIVERIES} WHERE o.seq = $1`, seq);
  return row ? deliveryOf(row) : undefined;
}

/**
 * The newest `limit` deliveries (of one endpoint, or of all), newest first; the head of an endpoint's queue that is
 * older than those comes first, so the log always shows what holds a queue up, with its attempts and last answer.
 */
export function* deliveryLogSteps(endpointId: string | undefined, limit: number): Steps<DeliveryLog> {
  const newest = endpointId
    ? yield sql(`${DELIVERIES} WHERE o.endpoint_id = $1 ORDER BY o.seq DESC LIMIT $2`, endpointId, limit)
    : yield sql(`${DELIVERIES} ORDER BY o.seq DESC LIMIT $1`, limit);
  const heads = endpointId
    ? yield sql(`${DELIVERIES} WHERE o.seq = ${headOf('e.id')} AND o.endpoint_id = $1`, endpointId)
    : yield sql(`${DELIVERIES} WHERE o.seq = ${headOf('e.id')} ORDER BY o.seq`);
  const newestSeqs = new Set(newest.map((r) => Number(r.seq)));
  const shown = [...heads.filter((r) => !newestSeqs.has(Number(r.seq))), ...newest].map(deliveryOf);
  const [count] = endpointId
    ? yield sql('SELECT count(*) AS n FROM webhook_outbox WHERE endpoint_id = $1', endpointId)
    : yield sql('SELECT count(*) AS n FROM webhook_outbox');
  return { shown, hidden: Number(count!.n) - shown.length };
}
