// The snapshot file format: one facility's Details in a fixed key order, compact JSON, signed over its exact bytes.
import { createHash, sign } from 'node:crypto';
import { facilityInfoOf, snapshotDetailOf } from '../../domain/views.ts';
import type { Snapshot, SnapshotSignature } from '../../../shared/listing.ts';
import type { FacilityData } from '../../domain/facility.ts';
import type { SigningKey } from './keygen.ts';
import { indexSummaryOf, type IndexSummary } from './index-entry.ts';

export interface SnapshotMeta {
  version: number;
  generatedAt: Date;
  expiresAt: Date;
  kid: string;
}

/** 2030-01-01T12:00:00Z: whole seconds, as snapshots state their times. */
export function isoSeconds(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/**
 * The facility and its Details, made by the functions the API answers with, so a snapshot and the API cannot disagree;
 * each Detail carries every promotion not ended by generatedAt (a reader decides what is active when). Nothing here
 * depends on the file's expiry: unchanged data gives unchanged content until a promotion starts or ends.
 */
function facilityAndDetailsOf(data: FacilityData, publicUrl: string, generatedAt: Date) {
  const facility = facilityInfoOf(data.facility);
  const from = generatedAt.getTime();
  return {
    facility,
    listings: data.listings.map((l) => snapshotDetailOf(l, data, publicUrl, from, facility)),
  };
}

export function snapshotOf(data: FacilityData, publicUrl: string, meta: SnapshotMeta): Snapshot {
  // Key order here is the order in the file: facility, listings, version, generated_at, expires_at, kid.
  return {
    ...facilityAndDetailsOf(data, publicUrl, meta.generatedAt),
    version: meta.version,
    generated_at: isoSeconds(meta.generatedAt),
    expires_at: isoSeconds(meta.expiresAt),
    kid: meta.kid,
  };
}

export interface EncodedSnapshot {
  bytes: Buffer;
  /** sha256 of the facility and Details: equal digests mean "the data has not changed" (key, version, times aside). */
  contentDigest: string;
}

/** The part of a snapshot that is the data (facility and Details), serialised once, and its digest. */
export interface SnapshotContent {
  content: string;
  contentDigest: string;
  listings: number;
  /** What index.json says about this content. */
  summary: IndexSummary;
}

/** The content of a snapshot generated at `generatedAt` (which decides its promotions, schedule and move-in). */
export function contentOf(data: FacilityData, publicUrl: string, generatedAt: Date): SnapshotContent {
  const { facility, listings } = facilityAndDetailsOf(data, publicUrl, generatedAt);
  const content = JSON.stringify({ facility, listings });
  return {
    content,
    contentDigest: digestOf(content),
    listings: listings.length,
    summary: indexSummaryOf(data.facility, listings),
  };
}

/**
 * Compact JSON (like the API's bodies) plus one trailing newline, all of it signed: exactly
 * `JSON.stringify(snapshot) + "\n"`. JSON.stringify keeps insertion order and every object is built in a fixed
 * order, so the same data always gives the same bytes. The content part is stringified once and reused for the
 * digest and for every version written, which matters at tens of thousands of listings.
 */
export function bytesOf(content: string, meta: SnapshotMeta): Buffer {
  const rest = {
    version: meta.version,
    generated_at: isoSeconds(meta.generatedAt),
    expires_at: isoSeconds(meta.expiresAt),
    kid: meta.kid,
  };
  return joined(content, rest);
}

/** `{"facility":..,"listings":[..]}` and `{"version":..}` as one object, by splicing the two texts. */
function joined(content: string, rest: object): Buffer {
  return Buffer.from(`${content.slice(0, -1)},${JSON.stringify(rest).slice(1)}\n`);
}

export function encodeSnapshot(snapshot: Snapshot): EncodedSnapshot {
  const { facility, listings, ...rest } = snapshot;
  const content = JSON.stringify({ facility, listings });
  return { bytes: joined(content, rest), contentDigest: digestOf(content) };
}

export function contentDigestOf(snapshot: { facility: unknown; listings: unknown }): string {
  return digestOf(JSON.stringify({ facility: snapshot.facility, listings: snapshot.listings }));
}

function digestOf(content: string): string {
  return createHash('sha256').update(content).digest('hex');
}

export function signatureOf(bytes: Uint8Array, key: SigningKey): SnapshotSignature {
  return { alg: 'EdDSA', kid: key.kid, sig: sign(null, bytes, key.privateKey).toString('base64url') };
}

export function serialiseSignature(signature: SnapshotSignature): Buffer {
  return Buffer.from(`${JSON.stringify(signature)}\n`);
}
