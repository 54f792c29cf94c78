// `snapshot follow`: keeps a folder as a verified mirror of a published target, from its index once, then by its feed.
import { createHash } from 'node:crypto';
import type { Jwks } from '../../../shared/listing.ts';
import { ListingsError } from '../../errors.ts';
import { eachConcurrently } from '../concurrently.ts';
import { checkFolder } from '../files.ts';
import { FeedPage, IndexFile, Tombstone, type FeedItem } from '../format/feed-format.ts';
import { baseUrlOf, FollowError, openSource, within, type Source } from './fetch.ts';
import { itemsAfter, lastSeqOf, nameOf, readKeys, readSigned, type Signed } from './read.ts';
import { MirrorBatch, readState, type FollowState } from './state.ts';
import { contentDigestOf } from '../format/format.ts';
import { INDEX_KEY, KEYS_KEY, LATEST_KEY, pointerKey, signatureKey } from '../targets/layout.ts';
import { verifySnapshot } from '../format/verify.ts';
import {
  heldTombstone,
  newestTombstone,
  renewedTombstone,
  tombstoneAt,
  tombstonesDue,
  unlistedOnTarget,
} from './tombstones.ts';

/** Per file: a facility of 10,000 listings is about 10 MB. */
export const MAX_FILE_BYTES = 32 * 1024 * 1024;

export interface FollowOptions {
  /** The published folder: http(s) URL, file URL or path. */
  base: string;
  /** The operator's keys.json (URL or path): the trust anchor, given apart from the base. */
  keys: string;
  /** The mirror folder; its cursor is DIR/.follow/state.json. */
  dir: string;
  now?: Date;
  maxBytes?: number;
  /** Facility files fetched at once. */
  concurrency?: number;
  /** Facilities fetched so far of those this run needs. */
  onProgress?: (p: { done: number; total: number }) => void;
}

export interface FollowSummary {
  /** index: read every facility the index lists; feed: walked the feed from the cursor; unchanged: the head had not moved. */
  mode: 'index' | 'feed' | 'unchanged';
  seq: number;
  /** Facilities the mirror lists now. */
  listed: number;
  fetched: number;
  withdrawn: number;
  /** Why this run started over from the index, when it had a cursor: the page holding it is gone or its key retired. */
  start_over?: string;
  /** Held tombstones the publisher signed again (half their TTL passed, or a new key), taken in their new version. */
  renewed: number;
  removed: number;
  /** Every file read, in order, relative to the base (keys.json too). */
  reads: string[];
  seconds: number;
}

export async function followOnce(opts: FollowOptions): Promise<FollowSummary> {
  const started = performance.now();
  const now = opts.now ?? new Date();
  await checkFolder(opts.dir);
  const source = openSource(opts.base, opts.maxBytes ?? MAX_FILE_BYTES);
  const batch = new MirrorBatch(opts.dir);
  try {
    const state = await readState(opts.dir);
    if (state && state.base !== source.base.href)
      throw new ListingsError(
        'invalid_state',
        `${opts.dir} mirrors ${state.base}, not ${source.base.href}: give each base its own --state folder`,
      );
    const summary = (mode: FollowSummary['mode'], rest: Partial<FollowSummary> = {}): FollowSummary => ({
      mode,
      seq: state?.seq ?? 0,
      listed: Object.values(state?.facilities ?? {}).filter((f) => f.digest !== null).length,
      fetched: 0,
      withdrawn: 0,
      renewed: 0,
      removed: 0,
      ...rest,
      reads: [...source.reads],
      seconds: Math.round(performance.now() - started) / 1000,
    });

    // The head first, with If-None-Match: while it has not moved (no item, no re-signing) a run costs one request.
    const headUrl = within(source.base, LATEST_KEY, LATEST_KEY);
    const first = await source.get(headUrl, state?.head_etag);
    const headDigest = createHash('sha256').update(first.bytes).digest('hex');
    if (state && (first.status === 304 || (first.status === 200 && headDigest === state.head_digest))) {
      // Unchanged is not current: the head it took vouches for the mirror only until its expires_at.
      if (state.head_expires_at !== undefined && Date.parse(state.head_expires_at) <= now.getTime())
        throw new FollowError(
          nameOf(source, headUrl),
          `expired at ${state.head_expires_at}, unchanged since: the copy is stale or publishing stopped`,
        );
      return summary('unchanged');
    }
    const keysUrl = keysUrlOf(opts.keys);
    const keys = await readKeys(source, keysUrl);
    const head = await readSigned(source, headUrl, keys.text, FeedPage, { first, mutable: true, now, expires: true });
    if (!head) throw new FollowError(LATEST_KEY, 'not found: is this a published folder with a change feed?');
    const headLast = lastSeqOf(head.doc, LATEST_KEY);
    if (state && headLast < state.seq)
      throw new FollowError(LATEST_KEY, `the feed ends at seq ${headLast}, before this mirror's cursor ${state.seq}`);
    const walk = state ? await itemsAfter(source, keys.text, state.seq, head.doc, now) : undefined;
    const items = walk && 'items' in walk ? walk.items : undefined;

    const index = await readSigned(source, within(source.base, INDEX_KEY, INDEX_KEY), keys.text, IndexFile, {
      mutable: true,
      now,
      expires: true,
    });
    if (!index) throw new FollowError(INDEX_KEY, 'not found');
    if (state && index.doc.version < state.index_version)
      throw new FollowError(INDEX_KEY, `version ${index.doc.version} is older than ${state.index_version}: rollback`);

    const held = new Map(Object.entries(state?.facilities ?? {}));
    const entries = new Map(index.doc.facilities.map((e) => [e.id, e]));
    indexCovers(items ?? head.doc.items, entries);
    const toFetch = index.doc.facilities.filter((e) => (held.get(e.id)?.version ?? 0) < e.version);
    for (const e of index.doc.facilities) {
      const h = held.get(e.id);
      if (h && h.version > e.version)
        throw new FollowError(
          INDEX_KEY,
          `lists ${e.id} v${e.version}, older than the mirror's v${h.version}: rollback`,
        );
    }
    const tombstones = items ? withdrawalsOf(items, entries, held) : [];
    const unlisted = items
      ? { taken: [], removed: [] }
      : await unlistedOnTarget(source, keys.text, held, new Set(entries.keys()), now);
    const { removed } = unlisted;
    // A start-over looked at every held tombstone already.
    const taken = new Set([...entries.keys(), ...tombstones.map((t) => t.facility)]);
    const due = items ? tombstonesDue(held, taken, currentKidOf(keys.text), now) : [];

    // Everything is read and verified before anything moves into DIR.
    await batch.stage(KEYS_KEY, keys.bytes);
    let done = 0;
    const progress = () => opts.onProgress?.({ done, total: toFetch.length + tombstones.length + due.length });
    progress();
    const next = new Map(held);
    const takeTombstone = async (t: Signed<Tombstone>) => {
      await batch.stage(signatureKey(pointerKey(t.doc.facility)), t.sig);
      await batch.stage(pointerKey(t.doc.facility), t.bytes);
      next.set(t.doc.facility, heldTombstone(t.doc));
    };
    await eachConcurrently(toFetch, opts.concurrency ?? 8, async (e) => {
      const url = within(source.base, `${e.id}/v${e.version}/listings.json`, INDEX_KEY);
      const name = nameOf(source, url);
      const [bytes, sig] = await readPair(source, url, 'the index names it');
      const result = verifySnapshot(bytes, sig.toString('utf8'), keys.text, {
        now,
        minVersion: (held.get(e.id)?.version ?? 0) + 1,
        facility: e.id,
      });
      if (!result.ok) throw new FollowError(name, `${result.reason}: ${result.message}`);
      if (result.snapshot.version !== e.version)
        throw new FollowError(name, `is version ${result.snapshot.version}, the index says ${e.version}`);
      if (contentDigestOf(JSON.parse(bytes.toString('utf8')) as Parameters<typeof contentDigestOf>[0]) !== e.digest)
        throw new FollowError(name, "its content does not match the index's digest");
      await batch.stage(signatureKey(pointerKey(e.id)), sig);
      await batch.stage(pointerKey(e.id), bytes);
      next.set(e.id, { version: e.version, digest: e.digest });
      done++;
      progress();
    });
    for (const item of tombstones) {
      const t = await withdrawalTombstone(source, keys.text, item, now);
      if ((held.get(item.facility)?.version ?? 0) >= t.doc.version)
        throw new FollowError(
          `${item.facility}/v${t.doc.version}/listings.json`,
          `version ${t.doc.version} is not above the mirror's: rollback`,
        );
      await takeTombstone(t);
      done++;
      progress();
    }
    let renewed = 0;
    let withdrawn = tombstones.length;
    for (const t of unlisted.taken) {
      if (held.get(t.doc.facility)?.digest === null) renewed++;
      else withdrawn++;
      await takeTombstone(t);
    }
    for (const id of due) {
      const t = await renewedTombstone(source, keys.text, id, held.get(id)!.version, now);
      if (t) {
        await takeTombstone(t);
        renewed++;
      }
      done++;
      progress();
    }
    for (const id of removed) {
      batch.remove(id);
      next.delete(id);
    }
    await batch.stage(signatureKey(INDEX_KEY), index.sig);
    await batch.stage(INDEX_KEY, index.bytes);

    const newState: FollowState = {
      base: source.base.href,
      seq: headLast,
      head_digest: headDigest,
      ...(head.etag ? { head_etag: head.etag } : {}),
      ...(head.doc.expires_at ? { head_expires_at: head.doc.expires_at } : {}),
      index_version: index.doc.version,
      facilities: Object.fromEntries([...next].sort(([a], [b]) => (a < b ? -1 : 1))),
    };
    await batch.apply(newState);
    return {
      mode: items ? 'feed' : 'index',
      seq: headLast,
      listed: entries.size,
      fetched: toFetch.length,
      withdrawn,
      ...(walk && 'startOver' in walk ? { start_over: walk.startOver } : {}),
      renewed,
      removed: removed.length,
      reads: [...source.reads],
      seconds: Math.round(performance.now() - started) / 1000,
    };
  } finally {
    await batch.discard();
    await source.close();
  }
}

/**
 * Refuses an index older than the feed it is read with (read between a publish's feed and index writes, or served
 * stale by a cache): each facility's last item must be in it, at its version or later, or, withdrawn, not below it.
 * Taken anyway, it would move the cursor past changes the mirror never took. The next run, with both current, goes on.
 */
function indexCovers(items: readonly FeedItem[], listed: ReadonlyMap<string, { version: number }>): void {
  const last = new Map<string, FeedItem>();
  for (const item of items) last.set(item.facility, item);
  for (const item of last.values()) {
    const entry = listed.get(item.facility);
    const behind =
      item.state === 'updated' ? (entry?.version ?? 0) < item.version : (entry?.version ?? Infinity) < item.version;
    if (behind)
      throw new FollowError(
        INDEX_KEY,
        `${entry ? `lists ${item.facility} at v${entry.version}` : `does not list ${item.facility}`}, behind the ` +
          `feed's v${item.version} (seq ${item.seq}): the index is older than the feed; run again`,
      );
  }
}

/**
 * The withdrawals to apply: a facility whose last item withdraws it and that the index no longer lists. One the mirror
 * never held, and that no earlier item of this batch published, has nothing to withdraw here and is passed over.
 */
function withdrawalsOf(
  items: readonly FeedItem[],
  listed: ReadonlyMap<string, unknown>,
  held: ReadonlyMap<string, { version: number; digest: string | null }>,
): FeedItem[] {
  const last = new Map<string, FeedItem>();
  const published = new Set<string>();
  for (const item of items) {
    if (item.state === 'updated') published.add(item.facility);
    last.set(item.facility, item);
  }
  return [...last.values()].filter(
    (i) => i.state === 'withdrawn' && !listed.has(i.facility) && (held.has(i.facility) || published.has(i.facility)),
  );
}

/**
 * The tombstone of a withdrawal item: the newest one the pointer names, since the publisher signs it again as new
 * versions without items and the version the item names expires within its TTL; the named version itself when the
 * pointer does not (yet) name one at least as new, as a cached pointer may not.
 */
async function withdrawalTombstone(
  source: Source,
  keys: string,
  item: FeedItem,
  now: Date,
): Promise<Signed<Tombstone>> {
  return (
    (await newestTombstone(source, keys, item.facility, item.version, now)) ??
    (await tombstoneAt(source, keys, item.facility, item.version, now, LATEST_KEY))
  );
}

async function readPair(source: Source, url: URL, why: string): Promise<[Buffer, Buffer]> {
  const name = nameOf(source, url);
  const bytes = await source.get(url);
  if (bytes.status !== 200) throw new FollowError(name, `not found, and ${why}`);
  const sig = await source.get(new URL('listings.json.sig', url));
  if (sig.status !== 200) throw new FollowError(`${name}.sig`, `not found, and ${why}`);
  return [bytes.bytes, sig.bytes];
}

/** The kid signing now: keys.json lists it first. */
function currentKidOf(keys: string): string | undefined {
  return (JSON.parse(keys) as Jwks).keys[0]?.kid;
}

function keysUrlOf(keys: string): URL {
  const url = baseUrlOf(keys);
  url.pathname = url.pathname.replace(/\/$/, ''); // a file, not a folder
  return url;
}
