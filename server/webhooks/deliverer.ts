// Delivers the outbox inside `listings serve`: claims endpoints whose oldest event is due (one node each), sends their
// events in order, one at a time per endpoint and a bounded number at once overall, and runs the promotion clock.
import { readFileSync, readlinkSync } from 'node:fs';
import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import type { WebhookStore } from '../store/webhook-store.ts';
import { LANES, type ClaimedEndpoint, type Lane, type Outgoing } from '../store/webhook-outbox.ts';
import { signedHeaders } from './sign.ts';
import { send, type SendOptions } from './send.ts';
import { outcomeOf } from './schedule.ts';
import { bodyOf } from './body.ts';

export interface DelivererOptions extends SendOptions {
  publicUrl: string;
  /**
   * Endpoints delivered to at once, over all (each endpoint one event at a time, in order); endpoints in retry take at
   * most half of them, so slow or dead receivers never hold every slot.
   */
  concurrency?: number;
  now?: () => number;
  /** The longest wait between two looks at the outbox: events another process queued are seen within it. */
  pollMs?: number;
  log?: (line: string) => void;
}

/** A claim is held this long; an endpoint's sender gives it back early, or it lapses when its node died. */
const LEASE_MS = 60_000;
const PRUNE_EVERY_MS = 3_600_000;
/** Finished deliveries stay in the log this long after their last attempt. */
const LOG_KEPT_MS = 30 * 86_400_000;

/**
 * Where a process id names one process: this host's boot (machines may share a host name) and PID namespace (containers
 * on one host may share a host name too). Off Linux, the host name alone.
 */
export function processScope(): string {
  const read = (f: () => string) => {
    try {
      return f().trim().replace(/\D/g, '');
    } catch {
      return '';
    }
  };
  const boot = read(() => readFileSync('/proc/sys/kernel/random/boot_id', 'utf8'));
  const pidNamespace = read(() => readlinkSync('/proc/self/ns/pid'));
  return [hostname(), boot, pidNamespace].filter((part) => part !== '').join('/');
}

/** Whether the process runs: a zombie (killed, not yet reaped by its parent or init) holds its pid but is dead. */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
  try {
    // The state follows the command name in parentheses, which may itself hold spaces or parentheses.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return true; // no /proc (not Linux), or gone since: kill's answer stands
  }
}

export class Deliverer {
  private readonly scope = processScope();
  readonly node = `${this.scope}:${process.pid}:${randomBytes(4).toString('hex')}`;
  /** The sends under way, by endpoint, with the lane each took its slot in. */
  private readonly inflight = new Map<string, { work: Promise<void>; lane: Lane }>();
  private readonly now: () => number;
  private readonly concurrency: number;
  /** Slots endpoints in retry may hold at once: their receivers failed last time, and may well hang until timeout. */
  private readonly retryingSlots: number;
  private timer: NodeJS.Timeout | undefined;
  private running = false;
  private ticking: Promise<void> | undefined;
  private nextBoundary = 0;
  /** The store's watchedVersion when the boundaries ahead were last read (undefined: not yet). */
  private boundariesOf: string | undefined;
  /** When the promotion clock last ran here (-Infinity: not yet, so the first look starts it). */
  private tickedAt = -Infinity;
  private lastFailure: string | undefined;
  private prunedAt = -Infinity;

  constructor(
    private readonly store: WebhookStore,
    private readonly opts: DelivererOptions,
  ) {
    this.now = opts.now ?? Date.now;
    this.concurrency = opts.concurrency ?? 16;
    this.retryingSlots = Math.max(1, Math.floor(this.concurrency / 2));
  }

  /** Free slots per lane: any free slot for an endpoint that answers, only some for one in retry. */
  private room(): Record<Lane, number> {
    const free = this.concurrency - this.inflight.size;
    const retrying = [...this.inflight.values()].filter((s) => s.lane === 'retrying').length;
    return { answering: free, retrying: Math.min(free, this.retryingSlots - retrying) };
  }

  /** When the next event a free slot may take is due (Infinity: none, or no slot free for it). */
  private async nextDue(now: number): Promise<number> {
    const room = this.room();
    if (room.answering <= 0) return Infinity;
    const due = await this.store.nextDue(now);
    return Math.min(...LANES.map((lane) => (room[lane] > 0 ? (due[lane] ?? Infinity) : Infinity)));
  }

  /** One look: queues due promotion events, claims free slots' worth of endpoints; resolves when their sends end. */
  async round(): Promise<void> {
    await Promise.all(await this.claimRound());
  }

  /** The sends a look started, not awaited by the loop: a slow endpoint holds its own slot only. */
  private async claimRound(): Promise<Promise<void>[]> {
    const now = this.now();
    await this.clock(now);
    if (now - this.prunedAt > PRUNE_EVERY_MS) {
      this.prunedAt = now;
      await this.store.prune(now - LOG_KEPT_MS);
    }
    // A read first: an idle server takes no write lock (and other processes see no commit) for nothing.
    if (this.room().answering <= 0) return [];
    const due = await this.store.nextDue(now);
    const sends: Promise<void>[] = [];
    // Endpoints that answer first; those in retry into what is left of their part.
    for (const lane of LANES) {
      const free = this.room()[lane];
      if (free <= 0 || (due[lane] ?? Infinity) > now) continue;
      const claimed = await this.store.claim(
        this.node,
        now,
        now + LEASE_MS,
        free,
        (event) => bodyOf(event, this.opts.publicUrl),
        lane,
      );
      sends.push(...claimed.map((e) => this.track(e, lane)));
    }
    return sends;
  }

  /**
   * Runs the promotion clock when a boundary is due. Between boundaries it reads when the next one falls again only
   * when an import (or an endpoint's change) has moved the watched version, which each look reads: so a promotion an
   * import adds seconds ahead is seen at that look, not at a periodic one after its instant.
   */
  private async clock(now: number): Promise<void> {
    // Read before the boundaries: a commit between the two is seen again at the next look.
    const watched = await this.store.watchedVersion();
    if (watched !== this.boundariesOf) {
      // Look from the last run, so a boundary an import added that has already passed is not missed.
      this.nextBoundary = (await this.store.nextBoundary(this.tickedAt)) ?? Infinity;
      this.boundariesOf = watched;
    }
    if (this.tickedAt > -Infinity && now < this.nextBoundary) return;
    const queued = await this.store.promotionTick(now);
    if (queued > 0) this.opts.log?.(`webhooks: ${queued} events of promotions starting or ending`);
    this.tickedAt = now;
    this.nextBoundary = (await this.store.nextBoundary(now)) ?? Infinity;
  }

  private track(endpoint: ClaimedEndpoint, lane: Lane): Promise<void> {
    const work = this.drain(endpoint)
      .catch((err: unknown) => this.opts.log?.(`webhooks: endpoint ${endpoint.id}: ${(err as Error).message}`))
      .finally(() => this.store.release(endpoint.id, this.node, this.now()).catch(() => {}))
      .finally(() => {
        this.inflight.delete(endpoint.id);
        if (this.running) this.schedule(0);
      });
    this.inflight.set(endpoint.id, { work, lane });
    return work;
  }

  /** Sends the endpoint's due events oldest first; stops at one not delivered (it waits for its retry) or the lease's end. */
  private async drain(endpoint: ClaimedEndpoint): Promise<void> {
    const leaseEnds = this.now() + LEASE_MS - 20_000;
    for (;;) {
      const head = await this.store.head(endpoint.id);
      const now = this.now();
      if (!head || head.nextAt > now || now > leaseEnds) return;
      if (!(await this.attempt(endpoint, head))) return;
    }
  }

  /** Whether to go on with the next event: this one was delivered (or is gone from the queue). */
  private async attempt(endpoint: ClaimedEndpoint, head: Outgoing): Promise<boolean> {
    const body = head.body;
    // Queued after the claim: the next claim fixes its bytes first.
    if (body === null) return false;
    const at = this.now();
    const result = await send(endpoint.url, signedHeaders(head.id, body, endpoint, at), body, this.opts);
    const outcome = outcomeOf(result, head.attempts, this.now());
    await this.store.recordAttempt(head.seq, endpoint.id, outcome);
    if (outcome.disable) this.opts.log?.(`webhooks: endpoint ${endpoint.id} disabled (${outcome.disable})`);
    return outcome.status === 'delivered';
  }

  start(): void {
    this.running = true;
    void this.freeDeadLeases().finally(() => this.schedule(0));
  }

  /** Leases of processes of this scope that are gone (a crash, SIGKILL) are freed at once, not when they lapse; start()
   * runs it. */
  async freeDeadLeases(): Promise<void> {
    const scope = `${this.scope}:`;
    for (const { id, node } of await this.store.leaseHolders(this.now()).catch(() => [])) {
      const pid = Number(node.slice(scope.length).split(':')[0]);
      if (node.startsWith(scope) && pid > 0 && !processAlive(pid))
        await this.store.release(id, node, this.now()).catch(() => {});
    }
  }

  private schedule(ms: number): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.loop(), ms);
    this.timer.unref();
  }

  private async loop(): Promise<void> {
    if (!this.running || this.ticking) return;
    const poll = this.opts.pollMs ?? 1000;
    this.ticking = this.claimRound()
      .then(() => (this.lastFailure = undefined))
      .catch((err: unknown) => this.failed((err as Error).message))
      .then(async () => {
        // Every slot an event may take busy: a send that ends looks again at once (track), so due events wait for
        // that, not a spin.
        const now = this.now();
        const due = await this.nextDue(now).catch(() => Infinity);
        if (this.running) this.schedule(Math.max(0, Math.min(poll, Math.min(due, this.nextBoundary) - now)));
      })
      .finally(() => (this.ticking = undefined));
  }

  /** A failure of the loop (the database away), said once until another one or a success. */
  private failed(message: string): void {
    if (message !== this.lastFailure) this.opts.log?.(`webhooks: ${message}`);
    this.lastFailure = message;
  }

  /** Stops looking and waits for the sends under way. */
  async stop(): Promise<void> {
    this.running = false;
    clearTimeout(this.timer);
    await this.ticking;
    await Promise.all([...this.inflight.values()].map((s) => s.work));
  }
}
