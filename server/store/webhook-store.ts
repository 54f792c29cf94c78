// Webhook endpoints and their outbox behind one interface: each operation is written once (as steps) and run on
// SQLite or on PostgreSQL, in a transaction.
import type { Db } from './db.ts';
import { inTransaction, type Pool } from './pg/connect.ts';
import { runPg, runSqlite, type Steps } from './steps.ts';
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
  deliveriesSteps,
  fixBodySteps,
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
  type Delivery,
  type Outgoing,
} from './webhook-outbox.ts';
import { nextBoundarySteps, promotionTickSteps } from './webhook-clock.ts';

type Run = <T>(steps: Steps<T>) => Promise<T>;

export interface WebhookStore {
  add(opts: NewEndpoint, actor: string, now?: number): Promise<{ endpoint: EndpointInfo; secret: string }>;
  list(keyId?: string): Promise<EndpointInfo[]>;
  remove(id: string, actor: string, now?: number): Promise<EndpointInfo>;
  rotate(id: string, actor: string, now?: number): Promise<{ endpoint: EndpointInfo; secret: string }>;
  enable(id: string, actor: string, now?: number): Promise<EndpointInfo>;
  deliveries(endpointId?: string, limit?: number): Promise<Delivery[]>;
  replay(deliveryId: number, actor: string, now?: number): Promise<Delivery>;
  sendTest(endpointId: string, actor: string, now?: number): Promise<Delivery>;
  claim(node: string, now: number, leaseUntil: number, limit: number): Promise<ClaimedEndpoint[]>;
  head(endpointId: string): Promise<Outgoing | undefined>;
  fixBody(seq: number, body: string): Promise<string | undefined>;
  recordAttempt(seq: number, endpointId: string, attempt: Attempt): Promise<void>;
  release(endpointId: string, node: string): Promise<void>;
  leaseHolders(now: number): Promise<{ id: string; node: string }[]>;
  nextDue(): Promise<number | undefined>;
  nextBoundary(from: number): Promise<number | undefined>;
  promotionTick(now: number): Promise<number>;
  prune(before: number): Promise<void>;
}

function webhookStore(run: Run): WebhookStore {
  return {
    add: (opts, actor, now = Date.now()) => run(addEndpointSteps(opts, actor, now)),
    list: (keyId) => run(listEndpointsSteps(keyId)),
    remove: (id, actor, now = Date.now()) => run(removeEndpointSteps(id, actor, now)),
    rotate: (id, actor, now = Date.now()) => run(rotateSecretSteps(id, actor, now)),
    enable: (id, actor, now = Date.now()) => run(enableEndpointSteps(id, actor, now)),
    deliveries: (endpointId, limit = 100) => run(deliveriesSteps(endpointId, limit)),
    replay: (seq, actor, now = Date.now()) => run(replaySteps(seq, actor, now)),
    sendTest: (id, actor, now = Date.now()) => run(testEventSteps(id, actor, now)),
    claim: (node, now, leaseUntil, limit) => run(claimSteps(node, now, leaseUntil, limit)),
    head: (id) => run(headSteps(id)),
    fixBody: (seq, body) => run(fixBodySteps(seq, body)),
    recordAttempt: (seq, id, attempt) => run(recordAttemptSteps(seq, id, attempt)),
    release: (id, node) => run(releaseSteps(id, node)),
    leaseHolders: (now) => run(leaseHoldersSteps(now)),
    nextDue: () => run(nextDueSteps()),
    nextBoundary: (from) => run(nextBoundarySteps(from)),
    promotionTick: (now) => run(promotionTickSteps(now)),
    prune: (before) => run(pruneSteps(before)),
  };
}

export const sqliteWebhooks = (db: Db): WebhookStore =>
  webhookStore(async (steps) => db.transaction(() => runSqlite(db, steps)).immediate());

export const pgWebhooks = (pool: Pool, named: <T>(p: Promise<T>) => Promise<T>): WebhookStore =>
  webhookStore((steps) => named(inTransaction(pool, (c) => runPg(c, steps))));
