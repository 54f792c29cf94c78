// index.json and the change feed on a target, written at the end of a publish (under its lock), after the files they name.
import type { Published } from '../../store/published.ts';
import { FeedPage, firstSeqOf, IndexFile, PAGE_SIZE, signedFile, type FeedItem } from '../format/feed-format.ts';
import { isoSeconds } from '../format/format.ts';
import { indexEntryOf, type IndexEntry, type IndexSummary } from '../format/index-entry.ts';
import type { SigningKey } from '../format/keygen.ts';
import type { SnapshotLedger } from '../../store/ledger.ts';
import { resignAt } from './fresh.ts';
import { readPointer, WITHDRAWN } from './pointer.ts';
import {
  INDEX_KEY,
  LATEST_KEY,
  pageKey,
  pointerKey,
  pointerMeta,
  signatureKey,
  versionMeta,
} from '../targets/layout.ts';
import type { ObjectMeta, Target } from '../targets/target.ts';

/** The ledger's key for index.json's own version counter: not a facility id (those never start with a dot). */
const INDEX_COUNTER = '.index';

export interface WrittenFacility {
  summary: IndexSummary;
  version: number;
  digest: string;
}

export interface FeedInput {
  /** What the local record says the target holds, after this publish's writes were recorded. */
  records: ReadonlyMap<string, Published>;
  /** Facilities whose new version this publish wrote. */
  written: ReadonlyMap<string, WrittenFacility>;
  /** Facilities whose tombstone this publish wrote, with its version. */
  withdrawn: ReadonlyMap<string, number>;
  generatedAt: Date;
  expiresAt: Date;
  /**
   * The caller has held the target's lock since it took it for a watch (then `forgetFeedOf`): index.json and the head
   * are then as this process last read or wrote them, and are not read again.
   */
  held?: boolean;
}

export interface FeedWritten {
  objects: number;
  bytes: number;
  items: FeedItem[];
  indexVersion: number;
}

/** What index.json and the feed's head are to become, from what the target holds now. */
export interface FeedPlan {
  before: IndexFile | undefined;
  head: FeedPage | undefined;
  entries: IndexEntry[];
  /** New items, seq not yet given. */
  items: FeedItem[];
  /** The index's and the head's generated_at, and the `at` of the items. */
  at: string;
  /**
   * The index or head lags what the pointers say (a publish failed or died after writing a pointer), or is past half
   * its TTL: they must be written even by a publish that wrote no facility.
   */
  behind: boolean;
}

/**
 * Carries the target's last index forward: a facility this publish wrote gets its new entry, and one the record holds at
 * a version the index does not (a publish that failed before this step) is read from its pointer. An entry whose
 * content changed after the head was last written gets an item: its change is in no page yet, whether it changed now or
 * in a publish that wrote the index but not the head. That is exact because `at` only grows from head to head.
 */
export async function planFeed(target: Target, input: FeedInput): Promise<FeedPlan> {
  const known = input.held ? seen.get(target) : undefined;
  const [before, head] = known ?? (await Promise.all([readIndex(target), readHead(target)]));
  seen.set(target, [before, head]);
  const headAt = head ? Date.parse(head.generated_at) : Number.NEGATIVE_INFINITY;
  const at = isoSeconds(new Date(Math.max(input.generatedAt.getTime(), headAt + 1000)));
  const previous = new Map(before?.facilities.map((e) => [e.id, e]));
  const entries = new Map(previous);
  const withdrawn: FeedItem[] = [];
  let moved = false;

  const ids = new Set([...input.records.keys(), ...input.written.keys(), ...input.withdrawn.keys()]);
  for (const id of [...ids].sort()) {
    const prev = previous.get(id);
    const tombstone = input.withdrawn.get(id);
    const record = input.records.get(id);
    if (tombstone !== undefined || (record?.contentDigest === WITHDRAWN && record.version >= (prev?.version ?? 0))) {
      moved ||= entries.delete(id);
      // Announced with the index that dropped it; one dropped by a publish whose head was never written, again.
      const version = tombstone ?? record!.version;
      if (tombstone !== undefined || prev || (headLags(before, head) && Date.parse(record!.generatedAt) > headAt))
        withdrawn.push(itemOf(id, version, null, 'withdrawn', at));
      continue;
    }
    let now = input.written.get(id);
    if (!now && record && record.version !== prev?.version) {
      const pointer = await readPointer(target, id);
      if (pointer?.summary) now = { summary: pointer.summary, version: pointer.version, digest: pointer.contentDigest };
    }
    if (!now || (prev && now.version <= prev.version)) continue;
    moved = true;
    const changed = prev?.digest !== now.digest;
    entries.set(
      id,
      indexEntryOf(now.summary, {
        version: now.version,
        digest: now.digest,
        updatedAt: changed ? at : prev.updated_at,
        url: pointerKey(id),
      }),
    );
  }

  const sorted = [...entries.values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const updated = sorted
    .filter((e) => Date.parse(e.updated_at) > headAt)
    .map((e) => itemOf(e.id, e.version, e.digest, 'updated', at));
  const now = input.generatedAt.getTime();
  const stale = [before, head].some((f) => !f?.expires_at || now >= resignAt(f.generated_at, f.expires_at));
  const behind = ids.size > 0 && (moved || updated.length + withdrawn.length > 0 || headLags(before, head) || stale);
  return { before, head, entries: sorted, items: [...updated, ...withdrawn], at, behind };
}

/** The index was written by a publish whose head was not. */
const headLags = (index: IndexFile | undefined, head: FeedPage | undefined) =>
  index !== undefined && (head === undefined || Date.parse(head.generated_at) < Date.parse(index.generated_at));

const itemOf = (facility: string, version: number, digest: string | null, state: FeedItem['state'], at: string) => ({
  seq: 0,
  facility,
  version,
  digest,
  state,
  at,
});

/**
 * The index and the feed when `always` (this publish wrote files they must name or be signed with) or when they are
 * behind; else nothing (undefined). Writes any page that filled, then index.json, then changes/latest.json.
 */
export async function writeIndexAndFeed(
  target: Target,
  ledger: SnapshotLedger,
  key: SigningKey,
  input: FeedInput & { always: boolean },
): Promise<FeedWritten | undefined> {
  const plan = await planFeed(target, input);
  if (!input.always && !plan.behind) return undefined;
  const { before, head, at } = plan;
  let objects = 0;
  let bytes = 0;
  // Until both are written, what the target holds is unknown: a write that fails part way is read afresh next time.
  seen.delete(target);
  const put = async (name: string, file: { bytes: Buffer; sig: Buffer }, meta: ObjectMeta) => {
    await target.put(signatureKey(name), file.sig, meta);
    await target.put(name, file.bytes, meta);
    objects += 2;
    bytes += file.bytes.length + file.sig.length;
  };

  // Full pages first (immutable), then the index, then the head that names them: a reader never meets a dangling link.
  let page = head?.page ?? 1;
  let tail = head?.items ?? [];
  let seq = tail.at(-1)?.seq ?? firstSeqOf(page) - 1;
  const items = plan.items.map((i) => ({ ...i, seq: ++seq }));
  const pageOf = (n: number, pageItems: FeedItem[], full: boolean) => ({
    page: n,
    items: pageItems,
    prev: n > 1 ? pageKey(n - 1) : null,
    next: full ? pageKey(n + 1) : null,
    generated_at: at,
    ...(full ? {} : { expires_at: isoSeconds(input.expiresAt) }),
    kid: key.kid,
  });
  for (const i of items) {
    tail = [...tail, i];
    if (tail.length === PAGE_SIZE) {
      await put(pageKey(page), signedFile(pageOf(page, tail, true), key), versionMeta);
      page++;
      tail = [];
    }
  }

  const floor = new Map([[INDEX_COUNTER, (before?.version ?? 0) + 1]]);
  const indexVersion = (await ledger.reserveVersions(target.recordKey, [INDEX_COUNTER], floor)).get(
    INDEX_COUNTER,
  )!.version;
  const index = {
    version: indexVersion,
    generated_at: at,
    expires_at: isoSeconds(input.expiresAt),
    kid: key.kid,
    facilities: plan.entries,
  };
  const indexFile = signedFile(index, key);
  const headFile = signedFile(pageOf(page, tail, false), key);
  await put(INDEX_KEY, indexFile, pointerMeta);
  await put(LATEST_KEY, headFile, pointerMeta);
  seen.set(target, [IndexFile.parse(parseJson(indexFile.bytes)), FeedPage.parse(parseJson(headFile.bytes))]);
  return { objects, bytes, items, indexVersion };
}

/**
 * index.json and the head as this process last read or wrote them on each target (one Target object per target, shared
 * by a watch and its panel's publishes). Only a publish that has held the lock throughout trusts them.
 */
const seen = new WeakMap<Target, [IndexFile | undefined, FeedPage | undefined]>();

/** A watch calls it once it holds the target's lock: what was seen before (another process may have written since) goes. */
export function forgetFeedOf(target: Target): void {
  seen.delete(target);
}

/** The target's index as the publisher left it, unverified (it is this publisher's own); anything else counts as none. */
async function readIndex(target: Target): Promise<IndexFile | undefined> {
  const parsed = IndexFile.safeParse(parseJson(await target.get(INDEX_KEY)));
  return parsed.success ? parsed.data : undefined;
}

async function readHead(target: Target): Promise<FeedPage | undefined> {
  const parsed = FeedPage.safeParse(parseJson(await target.get(LATEST_KEY)));
  return parsed.success ? parsed.data : undefined;
}

function parseJson(bytes: Buffer | undefined): unknown {
  if (!bytes) return undefined;
  try {
    return JSON.parse(bytes.toString('utf8'));
  } catch {
    return undefined;
  }
}

export type { IndexEntry };
