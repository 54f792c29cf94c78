// The publish lock on object storage: a leased lock object per publisher, and a listing that shows who else holds one.
//
// Works on every S3-compatible store, conditional writes or not, because S3 lists are strongly consistent: a publisher
// writes its own lock object, then lists them all. If it sees any other live one, it removes its own and gives up.
// Of two publishers, the one that lists first without seeing the other wrote before the other listed, so the other
// sees it and gives up: two can both give up (they retry later), never both go on.
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { ListingsError } from '../../errors.ts';
import { heldByWatch, isRunning } from '../files.ts';
import type { LockHolder } from './target.ts';

export const LOCK_PREFIX = '.publish-lock/';
/** A holder renews its lease every third of it; a lease not renewed for this long belongs to a publisher that died. */
export const LEASE_MS = 60_000;

interface Holder {
  host: string;
  pid: number;
  started_at: string;
  lease_until: string;
  /** A --watch publisher: it holds the lock until it is stopped. */
  watch?: boolean;
}

export interface LockStore {
  label: string;
  put(key: string, body: string): Promise<void>;
  get(key: string): Promise<Buffer | undefined>;
  remove(key: string): Promise<void>;
  list(prefix: string): Promise<string[]>;
}

/** A lock taken: its release, and whether its lease has (nearly) ended because renewing it failed. */
export interface Lease {
  release(): Promise<void>;
  lapsed(): boolean;
}

export async function leaseLock(store: LockStore, leaseMs = LEASE_MS, by: LockHolder = {}): Promise<Lease> {
  const mine = `${LOCK_PREFIX}${String(Date.now()).padStart(13, '0')}-${randomBytes(6).toString('hex')}.json`;
  const started = new Date().toISOString();
  const holder = (): Holder => ({
    host: hostname(),
    pid: process.pid,
    started_at: started,
    lease_until: new Date(Date.now() + leaseMs).toISOString(),
    ...(by.watch ? { watch: true } : {}),
  });
  // Until when the last lock object written holds (from before its write was sent, as its lease_until says).
  let holdsUntil = 0;
  const write = async () => {
    const body = holder();
    await store.put(mine, JSON.stringify(body));
    holdsUntil = Date.parse(body.lease_until);
  };
  await write();

  let live: { key: string; holder: Holder } | undefined;
  for (const key of await store.list(LOCK_PREFIX)) {
    if (key === mine) continue;
    const other = parseHolder(await store.get(key));
    if (!other) continue; // released meanwhile
    if (isStale(other))
      await store.remove(key).catch(() => undefined); // its publisher died; anyone may clear it
    else live ??= { key, holder: other };
  }
  if (live) {
    await store.remove(mine).catch(() => undefined);
    const h = live.holder;
    const who = `process ${h.pid} on ${h.host} since ${h.started_at}`;
    throw new ListingsError(
      'publish_locked',
      h.watch
        ? heldByWatch(store.label, who)
        : `${store.label} is being published by ${who}; wait for it, or delete ${store.label}/${live.key} if that publisher is gone (its lease ends ${h.lease_until})`,
    );
  }
  // A renewal that fails is tried again at the next; past its lease, another publisher may take the lock, so the
  // holder stops writing a sixth of a lease before (lapsed()), leaving room for a write already under way. A lock
  // lapsed is lost for good: renewing it then could bring it back beside another publisher's.
  let lost = false;
  const lapsed = () => (lost ||= Date.now() >= holdsUntil - leaseMs / 6);
  const renewal = setInterval(() => {
    if (lapsed()) clearInterval(renewal);
    else void write().catch(() => undefined);
  }, leaseMs / 3);
  renewal.unref();
  return {
    release: async () => {
      clearInterval(renewal);
      await store.remove(mine).catch(() => undefined); // an unreleased lock expires with its lease
    },
    lapsed,
  };
}

function parseHolder(bytes: Buffer | undefined): Holder | undefined {
  if (!bytes) return undefined;
  try {
    const h = JSON.parse(bytes.toString('utf8')) as Partial<Holder>;
    if (
      typeof h.host === 'string' &&
      typeof h.pid === 'number' &&
      typeof h.lease_until === 'string' &&
      typeof h.started_at === 'string'
    )
      return h as Holder;
  } catch {
    // fall through: a lock object we cannot read is treated as expired
  }
  return { host: '?', pid: 0, started_at: '?', lease_until: new Date(0).toISOString() };
}

/** Expired, or left by a process of this machine that no longer runs (SIGKILL): no need to wait out its lease. */
function isStale(h: Holder): boolean {
  return Date.parse(h.lease_until) <= Date.now() || (h.host === hostname() && h.pid > 0 && !isRunning(h.pid));
}
