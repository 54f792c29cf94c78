// `snapshot publish`: each facility's new version as immutable objects first, then its pointer; only what changed.
import { ListingsError } from '../../errors.ts';
import { ImportFacility } from '../../schemas/import.ts';
import type { Db } from '../../store/db.ts';
import { facilityById, facilityRevisions, listFacilities, promotionInstants } from '../../store/facilities.ts';
import type { Published } from '../../store/published.ts';
import { publishAudit, type PublishAudit, type PublishedVersion } from '../../store/audit.ts';
import {
  bytesOf,
  contentOf,
  isoSeconds,
  serialiseSignature,
  signatureOf,
  type SnapshotContent,
} from '../format/format.ts';
import type { SigningKey } from '../format/keygen.ts';
import { planKeys, writeKeys } from './keys.ts';
import { eachConcurrently } from '../concurrently.ts';
import { takeTurns } from './take-turns.ts';
import { planFeed, writeIndexAndFeed, type WrittenFacility } from './feed.ts';
import { isCurrent, isFresh } from './fresh.ts';
import { readPointer, WITHDRAWN } from './pointer.ts';
import { writeTombstone } from './tombstone.ts';
import { INDEX_KEY, pointerKey, pointerMeta, signatureKey, versionKey, versionMeta } from '../targets/layout.ts';
import type { Target } from '../targets/target.ts';
import { readFacility } from '../../store/snapshot-versions.ts';
import { ledgerOf, type SnapshotLedger } from '../../store/ledger.ts';

/** Local records are written in batches: one small transaction per this many facilities. */
const RECORD_EVERY = 100;

/** The import file's rule for facility ids; ids are also object names here, so nothing else may pass. */
export const isFacilityId = (id: string): boolean => ImportFacility.shape.id.safeParse(id).success;

export interface PublishOptions {
  target: Target;
  key: SigningKey;
  publicUrl: string;
  /** Default: every facility. */
  facilityIds?: readonly string[];
  ttlSeconds: number;
  /** Publish every facility, changed or not (`snapshot export`, or re-signing everything after a key rotation). */
  force?: boolean;
  now?: Date;
  /** Facilities in flight at once (their uploads overlap). */
  concurrency?: number;
  onProgress?: (progress: PublishProgress) => void;
  /** Once aborted, no new facility is started; those in flight finish (SIGTERM in watch mode). */
  signal?: AbortSignal;
  /** The caller already holds the target's lock (watch mode holds it for its whole run, from forgetFeedOf on). */
  locked?: boolean;
  /** Where each new version on the target is recorded, and as whom (the CLI, or the panel's operator). */
  audit?: PublishAudit;
}

export interface FacilityPublished {
  id: string;
  version: number;
  listings: number;
  bytes: number;
  /** false when the facility and its Details are the same as in the last snapshot written anywhere. */
  changed: boolean;
}

export interface PublishProgress {
  facility: FacilityPublished;
  done: number;
  total: number;
  elapsedMs: number;
}

export interface PublishSummary {
  target: string;
  kid: string;
  generated_at: string;
  expires_at: string;
  /** Facilities considered. */
  facilities: number;
  published: number;
  /** Unchanged, and more than half their TTL from expiry: nothing uploaded for them. */
  skipped: number;
  /** Facilities considered that are withdrawn on the target: skipped until published again by name. */
  withdrawn: number;
  listings: number;
  changed: number;
  unchanged: number;
  /** Objects uploaded, keys included. */
  objects: number;
  bytes: number;
  keys_updated: boolean;
  /** Tombstones of withdrawn facilities signed again (past half their TTL, or signed by another key). */
  tombstones: number;
  /** Set when a stop was requested before every facility was published. */
  stopped: boolean;
  /** Items this publish added to the change feed (changes/), and the version of the index.json it wrote (null: none). */
  feed_items: number;
  index_version: number | null;
  seconds: number;
  results: FacilityPublished[];
}

interface Candidate {
  id: string;
  /** The facility's revision when it was read (read before its rows, so never newer than the content). */
  revision: number;
  content: SnapshotContent;
  /** When its promotions start and end (ms): a file made before one of them that has passed is due again. */
  changes: readonly number[] | undefined;
}

/** The instants every file of one publish carries. */
interface Times {
  now: Date;
  generatedAt: Date;
  expiresAt: Date;
}

/** Publishes to one target from one process take turns: a watch and a panel's "publish now" may share a target. */
const inTurn = takeTurns();

/** On a SQLite file pass the Db; on PostgreSQL its ledger (server/store/pg/snapshot-ledger.ts). */
export function publishSnapshots(source: Db | SnapshotLedger, opts: PublishOptions): Promise<PublishSummary> {
  return inTurn(opts.target.recordKey, () => publishWhole(source, opts));
}

/** Plan, then under the target's lock: keys, each facility's version (recorded in batches), the index and feed. */
async function publishWhole(source: Db | SnapshotLedger, opts: PublishOptions): Promise<PublishSummary> {
  const started = performance.now();
  const ledger = ledgerOf(source);
  await ledger.refresh();
  const ids = facilityIdsOf(ledger.db, opts.facilityIds);
  const now = opts.now ?? new Date();
  const generatedAt = new Date(Math.floor(now.getTime() / 1000) * 1000);
  const times = { now, generatedAt, expiresAt: new Date(generatedAt.getTime() + opts.ttlSeconds * 1000) };
  const { candidates, tombstones, withdrawn } = await plan(ledger, ids, opts, times);
  const run = new PublishRun(ledger, opts, times, candidates.length, started);
  const { target, key } = opts;
  // The lock only when something may be uploaded: a publish with nothing to do writes nothing, not even a lock. The
  // index and feed may lag the pointers (a publish that failed or died after them): that is something to do.
  const mayWrite =
    opts.locked ||
    candidates.length > 0 ||
    tombstones.length > 0 ||
    (await planKeys(ledger, target, key, now)).changed ||
    (await feedBehind(ledger, target, times));
  const unlock = opts.locked || !mayWrite ? async () => {} : await target.lock();
  try {
    // Keys first, planned again under the lock: a reader who meets a new kid in a listings.json can find its key.
    if (mayWrite) run.wroteKeys(await writeKeys(target, await planKeys(ledger, target, key, now)));
    let failure: unknown;
    try {
      const one = (c: Candidate) => run.writeVersion(c);
      run.stopped = await eachConcurrently(candidates, opts.concurrency ?? 16, one, opts.signal);
      const renew = (id: string) => run.renewTombstone(id);
      run.stopped ||= await eachConcurrently(tombstones, opts.concurrency ?? 16, renew, opts.signal);
    } catch (err) {
      failure = err;
    }
    await run.record();
    // Even after a failure: the feed names what was written, so no change goes without its item.
    if (mayWrite) await run.writeFeed(failure === undefined);
    if (failure !== undefined) throw failure;
  } finally {
    await unlock();
  }
  return run.summary(ids, ids.length - candidates.length - withdrawn, withdrawn);
}

/**
 * What may need a new version, judged from the local record alone: an unchanged, fresh facility costs no request,
 * and one not imported since it was published (same revision) is not even read. One imported again with the same
 * data is recorded at its new revision here, and is no candidate. One whose promotion started or ended since its file
 * was made is a candidate: the file's schedule, move-in and promotions are as of then. A target that has lost what
 * the record says it holds (emptied, or made anew) is not trusted: every facility is a candidate, checked against its
 * pointer, and every withdrawn one gets its tombstone back.
 */
async function plan(
  ledger: SnapshotLedger,
  ids: string[],
  opts: PublishOptions,
  t: Times,
): Promise<{ candidates: Candidate[]; tombstones: string[]; withdrawn: number }> {
  const { db } = ledger;
  const records = await ledger.publishedOn(opts.target.recordKey);
  const lost = records.size > 0 && !opts.locked && (await opts.target.get(INDEX_KEY)) === undefined;
  const revisions = facilityRevisions(db);
  const instants = promotionInstants(db);
  const named = new Set(opts.facilityIds);
  const candidates: Candidate[] = [];
  const reRead: Published[] = [];
  let withdrawnCount = 0;
  for (const id of ids) {
    const held = records.get(id);
    const withdrawn = held?.contentDigest === WITHDRAWN;
    if (withdrawn && !named.has(id)) {
      withdrawnCount++; // a withdrawn facility comes back only when published by name
      continue;
    }
    const revision = revisions.get(id) ?? 0;
    const changes = instants.get(id);
    const sameSource = !opts.force && !lost && !withdrawn && held !== undefined && held.publicUrl === opts.publicUrl;
    const current = (digest: string) => sameSource && isCurrent(held, digest, opts.key.kid, changes, t);
    if (held?.revision === revision && current(held.contentDigest)) continue;
    const data = readFacility(db, id);
    if (!data) throw new ListingsError('unknown_facility', `facility "${id}" disappeared during the publish`);
    const content = contentOf(data, opts.publicUrl, t.generatedAt);
    if (held && current(content.contentDigest)) reRead.push({ ...held, revision });
    else candidates.push({ id, revision, content, changes });
  }
  await ledger.recordPublished(opts.target.recordKey, reRead);
  return { candidates, tombstones: tombstonesDue(records, opts, t, lost), withdrawn: withdrawnCount };
}

/**
 * Tombstones past half their TTL (or signed by another key, or on a target that lost them), to be signed again as
 * pointers are: withdrawn facilities whether or not the import still has them. None when the publish names facilities
 * (a named one comes back instead).
 */
function tombstonesDue(
  records: ReadonlyMap<string, Published>,
  opts: PublishOptions,
  t: Times,
  lost: boolean,
): string[] {
  if (opts.facilityIds && opts.facilityIds.length > 0) return [];
  return [...records.values()]
    .filter((p) => p.contentDigest === WITHDRAWN && (lost || !isFresh(p, WITHDRAWN, opts.key.kid, t.now)))
    .map((p) => p.facilityId)
    .sort();
}

/** One publish under way: what it wrote, what it still has to record and audit, and its counts. */
class PublishRun {
  stopped = false;
  private readonly results: FacilityPublished[] = [];
  private readonly written = new Map<string, WrittenFacility>();
  private readonly unrecorded: Published[] = [];
  private readonly unaudited: { version: PublishedVersion; action?: 'snapshot.withdraw' }[] = [];
  private tombstones = 0;
  private objects = 0;
  private bytes = 0;
  /** Candidates another machine (or a lost local record) had already published exactly so. */
  private adopted = 0;
  private keysUpdated = false;
  private feed: Awaited<ReturnType<typeof writeIndexAndFeed>> | undefined;

  constructor(
    private readonly ledger: SnapshotLedger,
    private readonly opts: PublishOptions,
    private readonly times: Times,
    private readonly total: number,
    private readonly started: number,
  ) {}

  wroteKeys(written: { objects: number; bytes: number; keysJson: boolean }): void {
    this.keysUpdated = written.keysJson;
    this.objects += written.objects;
    this.bytes += written.bytes;
  }

  /** A facility's new version: the immutable pair first, then the pointer, whose listings.json goes last. */
  async writeVersion({ id, revision, content, changes }: Candidate): Promise<void> {
    const { target, key, publicUrl } = this.opts;
    const { generatedAt, expiresAt } = this.times;
    const pointer = await readPointer(target, id);
    if (!this.opts.force && pointer && isCurrent(pointer, content.contentDigest, key.kid, changes, this.times)) {
      this.adopted++;
      this.unrecorded.push({ facilityId: id, revision, publicUrl, ...pointer });
      return;
    }
    const floor = new Map([[id, (pointer?.version ?? 0) + 1]]);
    const reserved = (await this.ledger.reserveVersions(target.recordKey, [id], floor)).get(id)!;
    const { version } = reserved;
    const listingsBytes = bytesOf(content.content, { version, generatedAt, expiresAt, kid: key.kid });
    const sigBytes = serialiseSignature(signatureOf(listingsBytes, key));
    const versioned = versionKey(id, version);
    // A pointer never names missing objects.
    await Promise.all([
      target.put(versioned, listingsBytes, versionMeta),
      target.put(signatureKey(versioned), sigBytes, versionMeta),
    ]);
    await target.put(signatureKey(pointerKey(id)), sigBytes, pointerMeta);
    await target.put(pointerKey(id), listingsBytes, pointerMeta);
    this.objects += 4;
    this.bytes += 2 * (listingsBytes.length + sigBytes.length);
    await this.ledger.recordWritten(target.recordKey, [{ id, version, contentDigest: content.contentDigest }]);
    const [generated, expires] = [isoSeconds(generatedAt), isoSeconds(expiresAt)];
    const digest = content.contentDigest;
    this.unrecorded.push({
      facilityId: id,
      revision,
      publicUrl,
      version,
      contentDigest: digest,
      kid: key.kid,
      generatedAt: generated,
      expiresAt: expires,
    });
    this.unaudited.push({ version: { facilityId: id, version, target: target.label, kid: key.kid } });
    this.written.set(id, { summary: content.summary, version, digest });
    if (this.unrecorded.length >= RECORD_EVERY) await this.record();
    const changed = digest !== reserved.previousDigest;
    const facility = { id, version, listings: content.listings, bytes: listingsBytes.length, changed };
    this.results.push(facility);
    const elapsedMs = performance.now() - this.started;
    this.opts.onProgress?.({ facility, done: this.results.length, total: this.total, elapsedMs });
  }

  /** A withdrawn facility's tombstone signed again, so that pinned readers meet "no longer listed", never "expired". */
  async renewTombstone(id: string): Promise<void> {
    const { target, key } = this.opts;
    // The record says the target holds a tombstone: one gone (the target emptied) is written again, as a pinned widget
    // must meet "no longer listed", never a 404.
    const pointer = await readPointer(target, id);
    if (pointer && (pointer.contentDigest !== WITHDRAWN || isFresh(pointer, WITHDRAWN, key.kid, this.times.now))) {
      // Published again, or renewed, by another machine: the record follows the target.
      this.unrecorded.push({ facilityId: id, revision: 0, publicUrl: '', ...pointer });
      return;
    }
    const renewed = await writeTombstone(target, this.ledger, key, id, pointer, this.times);
    this.tombstones++;
    this.objects += 4;
    this.bytes += renewed.bytes;
    const version = { facilityId: id, version: renewed.version, target: target.label, kid: key.kid };
    this.unaudited.push({ version, action: 'snapshot.withdraw' });
  }

  /** The local record and the audit log of what was written since the last time. */
  async record(): Promise<void> {
    const { audit, target } = this.opts;
    await this.ledger.recordPublished(target.recordKey, this.unrecorded.splice(0));
    const entries = this.unaudited.splice(0);
    await audit?.to.appendAudit(entries.map((e) => publishAudit(audit.actor, e.version, e.action ?? audit.action)));
  }

  /**
   * The signed index and the change feed's items for what was written, or for what an earlier publish wrote without
   * them (it failed or died after its pointers); after a failure, the first failure is told.
   */
  async writeFeed(succeeded: boolean): Promise<void> {
    const { target, key } = this.opts;
    const writing = writeIndexAndFeed(target, this.ledger, key, {
      records: await this.ledger.publishedOn(target.recordKey),
      written: this.written,
      withdrawn: new Map(),
      generatedAt: this.times.generatedAt,
      expiresAt: this.times.expiresAt,
      held: this.opts.locked,
      always: this.written.size > 0 || this.keysUpdated || this.tombstones > 0,
    });
    this.feed = await (succeeded ? writing : writing.catch(() => undefined));
    this.objects += this.feed?.objects ?? 0;
    this.bytes += this.feed?.bytes ?? 0;
  }

  /** `unplanned`: facilities the plan found needed nothing; `withdrawn`: those it passed over as withdrawn. */
  summary(ids: string[], unplanned: number, withdrawn: number): PublishSummary {
    const order = new Map(ids.map((id, i) => [id, i]));
    const results = this.results.sort((a, b) => order.get(a.id)! - order.get(b.id)!);
    const changed = results.filter((r) => r.changed).length;
    return {
      target: this.opts.target.label,
      kid: this.opts.key.kid,
      generated_at: isoSeconds(this.times.generatedAt),
      expires_at: isoSeconds(this.times.expiresAt),
      facilities: ids.length,
      published: results.length,
      skipped: unplanned + this.adopted,
      withdrawn,
      listings: results.reduce((n, r) => n + r.listings, 0),
      changed,
      unchanged: results.length - changed,
      objects: this.objects,
      bytes: this.bytes,
      keys_updated: this.keysUpdated,
      tombstones: this.tombstones,
      stopped: this.stopped,
      feed_items: this.feed?.items.length ?? 0,
      index_version: this.feed?.indexVersion ?? null,
      seconds: Math.round(performance.now() - this.started) / 1000,
      results,
    };
  }
}

/** The index or the feed's head lags what the local record says the pointers hold, or nears its expiry. */
async function feedBehind(ledger: SnapshotLedger, target: Target, t: Times): Promise<boolean> {
  const records = await ledger.publishedOn(target.recordKey);
  const none = new Map<string, never>();
  return (await planFeed(target, { records, written: none, withdrawn: none, ...t })).behind;
}

function facilityIdsOf(db: Db, requested: readonly string[] | undefined): string[] {
  if (requested && requested.length > 0) {
    const ids = [...new Set(requested)];
    const unknown = ids.filter((id) => !isFacilityId(id) || !facilityById(db, id));
    if (unknown.length > 0) {
      throw new ListingsError(
        'unknown_facility',
        `unknown facilit${unknown.length > 1 ? 'ies' : 'y'}: ${unknown.map((id) => `"${id}"`).join(', ')} (see "listings facilities list")`,
      );
    }
    return ids;
  }
  const ids = listFacilities(db).map((f) => f.id);
  if (ids.length === 0)
    throw new ListingsError(
      'nothing_to_export',
      'there are no facilities to publish: run "listings import FILE" first',
    );
  return ids;
}
