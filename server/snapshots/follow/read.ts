// A follower's reads of signed files: each verified over its exact bytes with the operator's keys, then shaped and dated.
import type { z } from 'zod';
import { Jwks } from '../../../shared/listing.ts';
import { FeedPage, firstSeqOf, PAGE_SIZE, pageOf, type FeedItem } from '../format/feed-format.ts';
import { FollowError, within, type Fetched, type Source } from './fetch.ts';
import { LATEST_KEY, pageKey, signatureKey } from '../targets/layout.ts';
import { verifySigned } from '../format/verify.ts';

export interface Signed<T> {
  doc: T;
  bytes: Buffer;
  sig: Buffer;
  etag?: string;
}

/** The base-relative name a message uses for a URL under the base. */
export const nameOf = (source: Source, url: URL) =>
  url.href.startsWith(source.base.href) ? url.href.slice(source.base.href.length) : url.href;

/** The operator's JWKS, as bytes (the mirror keeps them as they are) and as text for verification. */
export async function readKeys(source: Source, url: URL): Promise<{ bytes: Buffer; text: string }> {
  const got = await source.get(url);
  const name = nameOf(source, url);
  if (got.status !== 200) throw new FollowError(name, 'not found');
  const text = got.bytes.toString('utf8');
  let ok: boolean;
  try {
    ok = Jwks.safeParse(JSON.parse(text)).success;
  } catch {
    ok = false;
  }
  if (!ok) throw new FollowError(name, 'not a JWKS of Ed25519 keys');
  return { bytes: got.bytes, text };
}

export interface ReadOptions {
  /** A file the publisher rewrites in place (index, feed head): a read between its two writes is tried again. */
  mutable?: boolean;
  /** The file's bytes, already fetched (the head is read first, with If-None-Match). */
  first?: Fetched;
  now: Date;
  /** Whether the file must carry an expires_at in the future (all but the immutable full pages). */
  expires?: boolean;
}

/** The signed file at `url`: undefined when it does not exist; a refusal naming it for anything else wrong. */
export async function readSigned<S extends z.ZodType>(
  source: Source,
  url: URL,
  keys: string,
  schema: S,
  opts: ReadOptions,
): Promise<Signed<z.infer<S>> | undefined> {
  const name = nameOf(source, url);
  const sigUrl = new URL(signatureKey(url.pathname.split('/').pop()!), url);
  for (let attempt = 1; ; attempt++) {
    const got = attempt === 1 && opts.first ? opts.first : await source.get(url);
    if (got.status === 404) return undefined;
    const sig = await source.get(sigUrl);
    if (sig.status !== 200) throw new FollowError(`${name}.sig`, 'not found');
    const signed = verifySigned(got.bytes, sig.bytes.toString('utf8'), keys, name);
    if (!signed.ok) {
      if (signed.reason === 'signature_invalid' && opts.mutable && attempt < 3) continue;
      throw new FollowError(name, `${signed.reason}: ${signed.message}`);
    }
    const parsed = schema.safeParse(signed.content);
    if (!parsed.success) throw new FollowError(name, `signed, but not the contract's shape (${issueOf(parsed.error)})`);
    const expiresAt = (parsed.data as { expires_at?: string }).expires_at;
    if (opts.expires && (expiresAt === undefined || Date.parse(expiresAt) <= opts.now.getTime()))
      throw new FollowError(
        name,
        `expired at ${expiresAt ?? '(no expires_at)'}: the copy is stale or publishing stopped`,
      );
    return { doc: parsed.data, bytes: got.bytes, sig: sig.bytes, etag: got.etag };
  }
}

function issueOf(error: z.ZodError): string {
  const issue = error.issues[0];
  return issue ? `${issue.path.join('.') || 'the file'}: ${issue.message}` : 'invalid';
}

/** The last seq a page holds, after checking its items are dense from the page's first seq. */
export function lastSeqOf(page: FeedPage, name: string): number {
  const first = firstSeqOf(page.page);
  page.items.forEach((item, i) => {
    if (item.seq !== first + i)
      throw new FollowError(name, `seq ${item.seq} where ${first + i} belongs: a gap, or the feed going back`);
  });
  return first + page.items.length - 1;
}

/** The feed's items after a cursor, or why the follower starts over from the index instead. */
export type Walk = { items: FeedItem[] } | { startOver: string };

/**
 * The feed's items after `cursor`, walking full pages from the one that holds cursor + 1 by their `next` links, then
 * the head (a `next` naming the head's own page leads to the head). A page gone (the cursor is older than the oldest
 * page kept) or signed by a key since retired means starting over from the index.
 */
export async function itemsAfter(
  source: Source,
  keys: string,
  cursor: number,
  head: FeedPage,
  now: Date,
): Promise<Walk> {
  const items: FeedItem[] = [];
  let url = within(source.base, pageKey(pageOf(cursor + 1)), LATEST_KEY);
  for (let p = pageOf(cursor + 1); p < head.page; p++) {
    const name = nameOf(source, url);
    let page: Signed<FeedPage> | undefined;
    try {
      page = await readSigned(source, url, keys, FeedPage, { now });
    } catch (err) {
      // The index, signed now, is the way back.
      if (err instanceof FollowError && /^[^:]+: unknown_kid/.test(err.message))
        return { startOver: `${name} is signed by a key keys.json no longer lists` };
      throw err;
    }
    if (!page) return { startOver: `${name} is not served: the cursor (seq ${cursor}) is older than the pages kept` };
    if (page.doc.page !== p) throw new FollowError(name, `is page ${page.doc.page}, where page ${p} belongs`);
    if (page.doc.items.length !== PAGE_SIZE)
      throw new FollowError(name, `a full page with ${page.doc.items.length} items`);
    lastSeqOf(page.doc, name);
    items.push(...page.doc.items);
    if (!page.doc.next) throw new FollowError(name, 'a full page without a next link');
    url = within(source.base, page.doc.next, name);
  }
  items.push(...head.items);
  const after = items.filter((i) => i.seq > cursor);
  after.forEach((item, i) => {
    if (item.seq !== cursor + 1 + i)
      throw new FollowError('changes/', `seq ${item.seq} follows ${cursor + i}: a gap in the feed`);
  });
  return { items: after };
}
