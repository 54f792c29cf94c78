// The aggregators' files (contract, "Signed snapshots"): index.json, the change feed's pages and a withdrawn facility's
// tombstone, as zod shapes a follower checks, and one way to write any of them as signed bytes.
import { z } from 'zod';
import { Price } from '../../../shared/listing.ts';
import { serialiseSignature, signatureOf } from './format.ts';
import type { SigningKey } from './keygen.ts';

/** Items per full page: a full page is written once, immutable; the open tail is changes/latest.json. */
export const PAGE_SIZE = 1000;

const iso = z.iso.datetime();
const version = z.int().positive();
const facilityId = z.string().regex(/^[a-z0-9-]{1,64}$/);
const digest = z.string().regex(/^[0-9a-f]{64}$/);

export const IndexEntry = z.object({
  id: facilityId,
  name: z.string(),
  address: z.unknown(),
  geo: z.unknown(),
  currency: z.string().nullable(),
  listings: z.int().min(0),
  from_price: Price.nullable(),
  version,
  digest,
  updated_at: iso,
  url: z.string(),
});

export const IndexFile = z.object({
  version,
  generated_at: iso,
  expires_at: iso,
  kid: z.string(),
  facilities: z.array(IndexEntry),
});
export type IndexFile = z.infer<typeof IndexFile>;

export const FeedItem = z.object({
  seq: z.int().positive(),
  facility: facilityId,
  version,
  /** The content's digest; null for a withdrawal (a tombstone has no content). */
  digest: digest.nullable(),
  state: z.enum(['updated', 'withdrawn']),
  at: iso,
});
export type FeedItem = z.infer<typeof FeedItem>;

/** A full page (no expires_at: it is immutable, and the fresh head vouches for it by seq) or the open tail. */
export const FeedPage = z.object({
  page: z.int().positive(),
  items: z.array(FeedItem).max(PAGE_SIZE),
  prev: z.string().nullable(),
  next: z.string().nullable(),
  generated_at: iso,
  expires_at: iso.optional(),
  kid: z.string(),
});
export type FeedPage = z.infer<typeof FeedPage>;

export const Tombstone = z.object({
  facility: facilityId,
  state: z.literal('withdrawn'),
  version,
  withdrawn_at: iso,
  generated_at: iso,
  expires_at: iso,
  kid: z.string(),
});
export type Tombstone = z.infer<typeof Tombstone>;

/** The first seq a page holds: page n holds seq (n-1)*PAGE_SIZE+1 .. n*PAGE_SIZE. */
export const firstSeqOf = (page: number) => (page - 1) * PAGE_SIZE + 1;
/** The page that holds (or will hold) a seq. */
export const pageOf = (seq: number) => Math.floor((seq - 1) / PAGE_SIZE) + 1;

export interface SignedFile {
  bytes: Buffer;
  sig: Buffer;
}

/** Compact JSON plus a newline, signed over its exact bytes, like listings.json; objects are built in their file's key order. */
export function signedFile(document: object, key: SigningKey): SignedFile {
  const bytes = Buffer.from(`${JSON.stringify(document)}\n`);
  return { bytes, sig: serialiseSignature(signatureOf(bytes, key)) };
}
