// index.json and the change feed on a target, written at the end of a publish (under its lock), after the files they name.
import type { Published } from '../../store/published.ts';
import { FeedPage, firstSeqOf, IndexFile, PAGE_SIZE, signedFile, type FeedItem } from '../format/feed-format.ts';
import { isoSeconds } from '../format/format.ts';
import { indexEntryOf, type IndexEntry, type IndexSummary } from '../format/index-entry.ts';
import type { SigningKey } from '../format/keygen.ts';
import type { SnapshotLedger } from '../../store/ledger.ts';
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
}

export interface FeedWritten {
  objects: number;
  bytes: number;
  items: FeedItem[];
  indexVersion: number;
}

/**
 * Carries the target's last index forward: a facility this publish wrote gets its new entry, and an item when its
 * digest differs from the entry before; one the record holds at a version the index does not (a publish that failed
 * before this step) is read from its pointer. Writes any page that filled, then index.json, then changes/latest.json.
 */
export async function writeIndexAndFeed(
  target: Target,
  ledger: SnapshotLedger,
  key: SigningKey,
  input: FeedInput,
): Promise<FeedWritten> {
  const at = isoSeconds(input.generatedAt);
  const before = await readIndex(target);
  const previous = new Map(before?.facilities.map((e) => [e.id, e]));
  const entries = new Map(previous);
  const updated: FeedItem[] = [];
  const withdrawn: FeedItem[] = [];
  const item = (facility: string, version: number, digest: string | null, state: FeedItem['state']): FeedItem => ({
    seq: 0,
    facility,
    version,
    digest,
    state,
    at,
  });

  const ids = new Set([...input.records.keys(), ...input.written.keys(), ...input.withdrawn.keys()]);
  for (const id of [...ids].sort()) {
    const prev = previous.get(id);
    const tombstone = input.withdrawn.get(id);
    const record = input.records.get(id);
    if (tombstone !== undefined || (record?.contentDigest === WITHDRAWN && record.version >= (prev?.version ?? 0))) {
      entries.delete(id);
      if (tombstone !== undefined) withdrawn.push(item(id, tombstone, null, 'withdrawn'));
      continue;
    }
    let now = input.written.get(id);
    if (!now && record && record.version !== prev?.version) {
      const pointer = await readPointer(target, id);
      if (pointer?.summary) now = { summary: pointer.summary, version: pointer.version, digest: pointer.contentDigest };
    }
    if (!now || (prev && now.version < prev.version)) continue;
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
    if (changed) updated.push(item(id, now.version, now.digest, 'updated'));
  }

  let objects = 0;
  let bytes = 0;
  const put = async (name: string, file: { bytes: Buffer; sig: Buffer }, meta: ObjectMeta) => {
    await target.put(signatureKey(name), file.sig, meta);
    await target.put(name, file.bytes, meta);
    objects += 2;
    bytes += file.bytes.length + file.sig.length;
  };

  // Full pages first (immutable), then the index, then the head that names them: a reader never meets a dangling link.
  const head = await readHead(target);
  let page = head?.page ?? 1;
  let tail = head?.items ?? [];
  let seq = tail.at(-1)?.seq ?? firstSeqOf(page) - 1;
  const items = [...updated, ...withdrawn].map((i) => ({ ...i, seq: ++seq }));
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
    facilities: [...entries.values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)),
  };
  await put(INDEX_KEY, signedFile(index, key), pointerMeta);
  await put(LATEST_KEY, signedFile(pageOf(page, tail, false), key), pointerMeta);
  return { objects, bytes, items, indexVersion };
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
