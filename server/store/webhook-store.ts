// Webhook endpoints and their outbox behind one interface: each operation is written once (as steps) and run on
// SQLite or on PostgreSQL, in a transaction.
import type { Db } from './db.ts';
import { inTransaction, type Pool } from './pg/connect.ts';
import { runPg, runSqlite, type Steps } from './steps.ts';
import { writeWhenFree } from './busy.ts';
import {
  addEndpointSteps,
  enableEndpointSteps,
  listEndpointsSteps,
  removeEndpointSteps,
  rotateSecretSteps,
  type EndpointInfo,
  type NewEndpoint,
} from './webhook-endpoints.ts';
import {
  claimSteps,
  headSteps,
  leaseHoldersSteps,
  nextDueSteps,
  pruneSteps,
  recordAttemptSteps,
  releaseSteps,
  replaySteps,
  testEventSteps,
  type Attempt,
  type ClaimedEndpoint,
  type Lane,
  type Outgoing,
} from './webhook-outbox.ts';
import { deliveryLogSteps, findDeliverySteps, type Delivery, type DeliveryLog } from './webhook-log.ts';
import { nextBoundarySteps, promotionTickSteps } from './webhook-clock.ts';
import { watchedVersionSteps } from './webhook-reads.ts';

type Run = <T>(steps: Steps<T>) => Promise<T>;
/** Writes take the write lock from their start (SQLite's IMMEDIATE); reads take none, so an idle server writes nothing. */
interface Runners {
  write: Run;
  read: Run;
}

export interface WebhookStore {
  add(opts: NewEndpoint, actor: string, now?: number): Promise<{ endpoint: EndpointInfo; secret: string }>;
  list(keyId?: string, now?: number): Promise<EndpointInfo[]>;
  remove(id: string, actor: string, now?: number): Promise<EndpointInfo>;
  rotate(id: string, actor: string, now?: number): Promise<{ endpoint: EndpointInfo; secret: string }>;
  enable(id: string, actor: string, now?: number): Promise<EndpointInfo>;
  /** The log (newest first, each queue's head above them) with how many more it holds. */
  deliveryLog(endpointId?: string, limit?: number): Promise<DeliveryLog>;
  /** The deliveries the log shows. */
  deliveries(endpointId?: string, limit?: number): Promise<Delivery[]>;
  /** One delivery by its number (`webhooks replay` takes it), or undefined. */
  delivery(deliveryId: number): Promise<Delivery | undefined>;
  replay(deliveryId: number, actor: string, now?: number): Promise<Delivery>;
  sendTest(endpointId: string, actor: string, now?: number): Promise<Delivery>;
  /** `bodyOf` makes an event's bytes from its stored form (the sender completes its URLs). */
  claim(
    node: string,
    now: number,
    leaseUntil: number,
    limit: number,
    bodyOf: (event: string) => string,
    /** Only endpoints of this lane (any when left out). */
    lane?: Lane,
  ): Promise<ClaimedEndpoint[]>;
  head(endpointId: string): Promise<Outgoing | undefined>;
  recordAttempt(seq: number, endpointId: string, attempt: Attempt): Promise<void>;
  release(endpointId: string, node: string, now: number): Promise<void>;
  leaseHolders(now: number): Promise<{ id: string; node: string }[]>;
  nextDue(now: number): Promise<Record<Lane, number | undefined>>;
  nextBoundary(from: number): Promise<number | undefined>;
  /** Changes when an import or an endpoint may have changed the boundaries ahead: read them again then. */
  watchedVersion(): Promise<string>;
  promotionTick(now: number): Promise<number>;
  prune(before: number): Promise<void>;
}

/** Deliveries the log shows by default, beside the heads of the queues. */
const LOG_SHOWN = 100;

function webhookStore({ write: run, read }: Runners): WebhookStore {
  return {
    add: (opts, actor, now = Date.now()) => run(addEndpointSteps(opts, actor, now)),
    list: (keyId, now = Date.now()) => read(listEndpointsSteps(keyId, now)),
    remove: (id, actor, now = Date.now()) => run(removeEndpointSteps(id, actor, now)),
    rotate: (id, actor, now = Date.now()) => run(rotateSecretSteps(id, actor, now)),
    enable: (id, actor, now = Date.now()) => run(enableEndpointSteps(id, actor, now)),
    deliveryLog: (endpointId, limit = LOG_SHOWN) => read(deliveryLogSteps(endpointId, limit)),
    deliveries: async (endpointId, limit = LOG_SHOWN) => (await read(deliveryLogSteps(endpointId, limit))).shown,
    delivery: (seq) => read(findDeliverySteps(seq)),
    replay: (seq, actor, now = Date.now()) => run(replaySteps(seq, actor, now)),
    sendTest: (id, actor, now = Date.now()) => run(testEventSteps(id, actor, now)),
    claim: (node, now, leaseUntil, limit, bodyOf, lane) => run(claimSteps(node, now, leaseUntil, limit, bodyOf, lane)),
    head: (id) => read(headSteps(id)),
    recordAttempt: (seq, id, attempt) => run(recordAttemptSteps(seq, id, attempt)),
    release: (id, node, now) => run(releaseSteps(id, node, now)),
    leaseHolders: (now) => read(leaseHoldersSteps(now)),
    nextDue: (now) => read(nextDueSteps(now)),
    nextBoundary: (from) => read(nextBoundarySteps(from)),
    watchedVersion: () => read(watchedVersionSteps()),
    promotionTick: (now) => run(promotionTickSteps(now)),
    prune: (before) => run(pruneSteps(before)),
  };
}

export const sqliteWebhooks = (db: Db): WebhookStore =>
  webhookStore({
    // BEGIN IMMEDIATE takes the lock before the steps start, so a busy attempt has run none of them.
    write: (steps) => writeWhenFree(db, () => db.transaction(() => runSqlite(db, steps)).immediate()),
    read: async (steps) => db.transaction(() => runSqlite(db, steps))(),
  });

export const pgWebhooks = (pool: Pool, named: <T>(p: Promise<T>) => Promise<T>): WebhookStore => {
  const run: Run = (steps) => named(inTransaction(pool, (c) => runPg(c, steps)));
  return webhookStore({ write: run, read: run });
};
