// `snapshot publish`: each facility's new version as immutable objects first, then its pointer; only what changed.
import { ListingsError } from '../errors.ts';
import { ImportFacility } from '../schemas/import.ts';
import type { Db } from '../store/db.ts';
import { facilityById, facilityRevisions, listFacilities } from '../store/facilities.ts';
import type { Published } from '../store/published.ts';
import { publishAudit, type PublishAudit, type PublishedVersion } from '../store/audit.ts';
import { bytesOf, contentOf, isoSeconds, serialiseSignature, signatureOf, type SnapshotContent } from './format.ts';
import type { SigningKey } from './keygen.ts';
import { planKeys, writeKeys } from './publish-keys.ts';
import { eachConcurrently } from './concurrently.ts';
import { takeTurns } from './take-turns.ts';
import { writeIndexAndFeed, type WrittenFacility } from './publish-feed.ts';
import { readPointer, WITHDRAWN } from './publish-pointer.ts';
import { pointerKey, pointerMeta, signatureKey, versionKey, versionMeta } from './targets/layout.ts';
import type { Target } from './targets/target.ts';
import { readFacility } from '../store/snapshot-versions.ts';
import { ledgerOf, type SnapshotLedger } from '../store/ledger.ts';

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
  /** The caller already holds the target's lock (watch mode holds it for its whole run). */
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
  listings: number;
  changed: number;
  unchanged: number;
  /** Objects uploaded, keys included. */
  objects: number;
  bytes: number;
  keys_updated: boolean;
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
}

/** Publishes to one target from one process take turns: a watch and a panel's "publish now" may share a target. */
const inTurn = takeTurns();

/** On a SQLite file pass the Db; on PostgreSQL its ledger (server/store/pg/snapshot-ledger.ts). */
export function publishSnapshots(source: Db | SnapshotLedger, opts: PublishOptions): Promise<PublishSummary> {
  return inTurn(opts.target.recordKey, () => publishWhole(source, opts));
}

async function publishWhole(source: Db | SnapshotLedger, opts: PublishOptions): Promise<PublishSummary> {
  const started = performance.now();
  const ledger = ledgerOf(source);
  await ledger.refresh();
  const { db } = ledger;
  const ids = facilityIdsOf(db, opts.facilityIds);
  const now = opts.now ?? new Date();
  const generatedAt = new Date(Math.floor(now.getTime() / 1000) * 1000);
  const expiresAt = new Date(generatedAt.getTime() + opts.ttlSeconds * 1000);
  const { target, key } = opts;

  // What may need a new version, judged from the local record alone: an unchanged, fresh facility costs no request,
  // and one not imported since it was published (same revision) is not even read.
  const records = await ledger.publishedOn(target.recordKey);
  const revisions = facilityRevisions(db);
  const named = new Set(opts.facilityIds);
  const candidates: Candidate[] = [];
  const reRead: Published[] = [];
  for (const id of ids) {
    const held = records.get(id);
    const withdrawn = held?.contentDigest === WITHDRAWN;
    if (withdrawn && !named.has(id)) continue; // a withdrawn facility comes back only when published by name
    const revision = revisions.get(id) ?? 0;
    const sameSource = !opts.force && !withdrawn && held !== undefined && held.publicUrl === opts.publicUrl;
    if (sameSource && held.revision === revision && isFresh(held, held.contentDigest, key.kid, now)) continue;
    const data = readFacility(db, id);
    if (!data) throw new ListingsError('unknown_facility', `facility "${id}" disappeared during the publish`);
    const content = contentOf(data, opts.publicUrl, generatedAt, expiresAt);
    if (sameSource && isFresh(held, content.contentDigest, key.kid, now))
      reRead.push({ ...held, revision }); // imported again, same data
    else candidates.push({ id, revision, content });
  }
  await ledger.recordPublished(target.recordKey, reRead);

  const results: FacilityPublished[] = [];
  let objects = 0;
  let bytes = 0;
  let skipped = ids.length - candidates.length;
  let keysUpdated = false;
  let stopped = false;
  const written = new Map<string, WrittenFacility>();
  let feed: Awaited<ReturnType<typeof writeIndexAndFeed>> | undefined;
  // The lock only when something may be uploaded: a publish with nothing to do writes nothing, not even a lock.
  const mayWrite = opts.locked || candidates.length > 0 || (await planKeys(ledger, target, key, now)).changed;
  const unlock = opts.locked || !mayWrite ? async () => {} : await target.lock();
  try {
    if (mayWrite) {
      // Keys first, planned again under the lock: a reader who meets a new kid in a listings.json can find its key.
      const written = await writeKeys(target, key, await planKeys(ledger, target, key, now));
      keysUpdated = written.objects > 0;
      objects += written.objects;
      bytes += written.bytes;
    }

    const unrecorded: Published[] = [];
    const unaudited: PublishedVersion[] = [];
    const flush = async () => {
      await ledger.recordPublished(target.recordKey, unrecorded.splice(0));
      await opts.audit?.to.appendAudit(
        unaudited.splice(0).map((v) => publishAudit(opts.audit!.actor, v, opts.audit!.action)),
      );
    };
    const publishOne = async ({ id, revision, content }: Candidate) => {
      const pointer = await readPointer(target, id);
      if (!opts.force && pointer && isFresh(pointer, content.contentDigest, key.kid, now)) {
        skipped++; // another machine (or a lost local record) already published exactly this: adopt it
        unrecorded.push({ facilityId: id, revision, publicUrl: opts.publicUrl, ...pointer });
        return;
      }
      const floor = new Map([[id, (pointer?.version ?? 0) + 1]]);
      const reserved = (await ledger.reserveVersions(target.recordKey, [id], floor)).get(id)!;
      const listingsBytes = bytesOf(content.content, {
        version: reserved.version,
        generatedAt,
        expiresAt,
        kid: key.kid,
      });
      const sigBytes = serialiseSignature(signatureOf(listingsBytes, key));
      const versioned = versionKey(id, reserved.version);
      // The immutable pair first; then the pointer, whose listings.json goes last: a pointer never names missing objects.
      await Promise.all([
        target.put(versioned, listingsBytes, versionMeta),
        target.put(signatureKey(versioned), sigBytes, versionMeta),
      ]);
      await target.put(signatureKey(pointerKey(id)), sigBytes, pointerMeta);
      await target.put(pointerKey(id), listingsBytes, pointerMeta);
      objects += 4;
      bytes += 2 * (listingsBytes.length + sigBytes.length);
      await ledger.recordWritten(target.recordKey, [
        { id, version: reserved.version, contentDigest: content.contentDigest },
      ]);
      unrecorded.push({
        facilityId: id,
        revision,
        publicUrl: opts.publicUrl,
        version: reserved.version,
        contentDigest: content.contentDigest,
        kid: key.kid,
        generatedAt: isoSeconds(generatedAt),
        expiresAt: isoSeconds(expiresAt),
      });
      unaudited.push({ facilityId: id, version: reserved.version, target: target.label, kid: key.kid });
      written.set(id, { summary: content.summary, version: reserved.version, digest: content.contentDigest });
      if (unrecorded.length >= RECORD_EVERY) await flush();
      const facility = {
        id,
        version: reserved.version,
        listings: content.listings,
        bytes: listingsBytes.length,
        changed: content.contentDigest !== reserved.previousDigest,
      };
      results.push(facility);
      opts.onProgress?.({
        facility,
        done: results.length,
        total: candidates.length,
        elapsedMs: performance.now() - started,
      });
    };
    let failure: unknown;
    try {
      stopped = await eachConcurrently(candidates, opts.concurrency ?? 16, publishOne, opts.signal);
    } catch (err) {
      failure = err;
    }
    await flush();
    // Even after a failure: the feed names what was written, so no change goes without its item.
    if (written.size > 0 || keysUpdated) {
      const writing = writeIndexAndFeed(target, ledger, key, {
        records: await ledger.publishedOn(target.recordKey),
        written,
        withdrawn: new Map(),
        generatedAt,
        expiresAt,
      });
      feed = await (failure === undefined ? writing : writing.catch(() => undefined)); // the first failure is the one told
      objects += feed?.objects ?? 0;
      bytes += feed?.bytes ?? 0;
    }
    if (failure !== undefined) throw failure;
  } finally {
    await unlock();
  }
  const order = new Map(ids.map((id, i) => [id, i]));
  const changed = results.filter((r) => r.changed).length;
  return {
    target: target.label,
    kid: key.kid,
    generated_at: isoSeconds(generatedAt),
    expires_at: isoSeconds(expiresAt),
    facilities: ids.length,
    published: results.length,
    skipped,
    listings: results.reduce((n, r) => n + r.listings, 0),
    changed,
    unchanged: results.length - changed,
    objects,
    bytes,
    keys_updated: keysUpdated,
    stopped,
    feed_items: feed?.items.length ?? 0,
    index_version: feed?.indexVersion ?? null,
    seconds: Math.round(performance.now() - started) / 1000,
    results: results.sort((a, b) => order.get(a.id)! - order.get(b.id)!),
  };
}

/**
 * Unchanged data, signed by the current key, whose expiry is more than half its TTL away needs nothing. Past half
 * the TTL it is re-signed, so a copy on a CDN never comes near its expiry while publishing goes on; after a key
 * rotation everything is re-signed with the new key.
 */
export function isFresh(
  held: Pick<Published, 'contentDigest' | 'kid' | 'generatedAt' | 'expiresAt'> | undefined,
  digest: string,
  kid: string,
  now: Date,
): boolean {
  if (!held || held.contentDigest !== digest || held.kid !== kid) return false;
  const expires = Date.parse(held.expiresAt);
  const ttl = expires - Date.parse(held.generatedAt);
  return expires - now.getTime() > ttl / 2;
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
