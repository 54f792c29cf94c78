// Checks a snapshot the way a partner would: signature over the exact bytes, key by kid, expiry, and rollback.
import { createPublicKey, verify as verifyEd25519, type KeyObject } from 'node:crypto';
import { z } from 'zod';
import { Detail, FacilityRef, Jwks, Snapshot, SnapshotSignature, type Jwk } from '../../../shared/listing.ts';
import { FeedPage, IndexFile, Tombstone } from './feed-format.ts';

export type VerifyFailureReason =
  | 'malformed' // the signature file, the JWKS, or the signed content is not what the contract describes
  | 'kid_mismatch' // the signature names another key than listings.json does
  | 'unknown_kid' // no key in the JWKS has the signature's kid (signed with another key)
  | 'signature_invalid' // the bytes are not what the key signed (tampered, or another file's signature)
  | 'facility_mismatch' // a valid snapshot of another facility than the one expected
  | 'expired' // now is at or after expires_at
  | 'rollback' // version is lower than the lowest one the reader accepts
  | 'withdrawn'; // a valid tombstone: the operator withdrew the facility, and there is no snapshot to use

export interface VerifyOptions {
  now: Date;
  /** Reject versions below this one (the highest version the reader has seen before). */
  minVersion?: number;
  /** Reject a snapshot of any other facility (guards against a whole pair copied to another facility's URL). */
  facility?: string;
  /** How messages call the file: the name it was given by (default listings.json). */
  name?: string;
}

export interface Checked {
  bytes: number;
  alg: 'EdDSA';
  kid: string;
  facility: { id: string; name: string };
  version: number;
  min_version: number | null;
  generated_at: string;
  expires_at: string;
  expires_in_seconds: number;
  listings: number;
}

export type VerifyResult =
  | { ok: true; checked: Checked; snapshot: Snapshot | z.infer<typeof EarlierSnapshot> }
  | { ok: false; reason: VerifyFailureReason; message: string };

const fail = (
  reason: VerifyFailureReason,
  message: string,
): { ok: false; reason: VerifyFailureReason; message: string } => ({ ok: false, reason, message });

export type SignedResult =
  { ok: true; kid: string; content: unknown } | { ok: false; reason: VerifyFailureReason; message: string };

/**
 * Authenticity first: nothing in the signed file is trusted until its signature verifies. The one earlier check
 * (a kid that differs between the two files) can only reject, never accept, so reading unverified bytes there is safe.
 * `name` is how messages call the signed file (listings.json, index.json, changes/latest.json).
 */
export function verifySigned(bytes: Uint8Array, signature: unknown, jwks: unknown, name: string): SignedResult {
  const sig = SnapshotSignature.safeParse(typeof signature === 'string' ? parseJson(signature) : signature);
  if (!sig.success) return fail('malformed', 'the signature file is not {"alg":"EdDSA","kid":...,"sig":...}');
  const keys = Jwks.safeParse(typeof jwks === 'string' ? parseJson(jwks) : jwks);
  if (!keys.success)
    return fail(
      'malformed',
      'the keys file is not a JWKS of Ed25519 keys ({"keys":[{"kty":"OKP","crv":"Ed25519","x":...,"kid":...}]})',
    );

  const content = parseJson(Buffer.from(bytes).toString('utf8'));
  const claimedKid = (content as { kid?: unknown } | undefined)?.kid;
  if (typeof claimedKid === 'string' && claimedKid !== sig.data.kid) {
    return fail('kid_mismatch', `the signature is by key ${sig.data.kid} but ${name} names key ${claimedKid}`);
  }

  const jwk = keys.data.keys.find((k) => k.kid === sig.data.kid);
  if (!jwk)
    return fail(
      'unknown_kid',
      `no key with kid ${sig.data.kid} in the keys file (it has: ${keys.data.keys.map((k) => k.kid).join(', ') || 'none'})`,
    );
  const publicKey = publicKeyOf(jwk);
  if (!publicKey) return fail('malformed', `the key ${jwk.kid} in the keys file is not a valid Ed25519 public key`);
  const signatureBytes = Buffer.from(sig.data.sig, 'base64url');
  if (signatureBytes.length !== 64 || !verifyEd25519(null, bytes, publicKey, signatureBytes)) {
    return fail(
      'signature_invalid',
      `the signature does not match the bytes of ${name} (changed, or the signature of another file)`,
    );
  }
  return { ok: true, kid: sig.data.kid, content };
}

/**
 * A snapshot signed before the richer listing data existed: the same envelope, the facility as `{ id, name }` and Details
 * without the later fields. Such a file stays valid until it expires, so a reader that meets one keeps its copy.
 */
const EarlierSnapshot = Snapshot.extend({
  facility: FacilityRef,
  listings: z.array(
    Detail.omit({
      unit_type: true,
      features: true,
      promotions: true,
      schedule: true,
      move_in: true,
      floor: true,
      door: true,
      fees: true,
      protection: true,
    }),
  ),
});

export function verifySnapshot(
  listingsBytes: Uint8Array,
  signature: unknown,
  jwks: unknown,
  opts: VerifyOptions,
): VerifyResult {
  const signed = verifySigned(listingsBytes, signature, jwks, opts.name ?? 'listings.json');
  if (!signed.ok) return signed;
  const { kid, content } = signed;
  const current = Snapshot.safeParse(content);
  const parsed = current.success ? current : EarlierSnapshot.safeParse(content);
  if (!parsed.success) return withdrawalOrMalformed(content, opts);
  const snapshot = parsed.data;
  if (opts.facility !== undefined && snapshot.facility.id !== opts.facility) {
    return fail('facility_mismatch', `this is the snapshot of facility ${snapshot.facility.id}, not ${opts.facility}`);
  }
  const stale = staleOrOld(snapshot, opts);
  if (stale) return stale;
  return {
    ok: true,
    snapshot,
    checked: {
      bytes: listingsBytes.length,
      alg: 'EdDSA',
      kid,
      facility: snapshot.facility,
      version: snapshot.version,
      min_version: opts.minVersion ?? null,
      generated_at: snapshot.generated_at,
      expires_at: snapshot.expires_at,
      expires_in_seconds: expiresInSeconds(snapshot, opts),
      listings: snapshot.listings.length,
    },
  };
}

const expiresInSeconds = (signed: { expires_at: string }, opts: VerifyOptions) =>
  Math.floor((Date.parse(signed.expires_at) - opts.now.getTime()) / 1000);

/** A snapshot's or a tombstone's expiry and version, checked alike: an old signed file replayed is refused either way. */
function staleOrOld(signed: { version: number; expires_at: string }, opts: VerifyOptions): VerifyResult | undefined {
  if (Date.parse(signed.expires_at) <= opts.now.getTime()) {
    return fail(
      'expired',
      `expired at ${signed.expires_at} (${-expiresInSeconds(signed, opts)} s ago): the copy is stale or the export has stopped`,
    );
  }
  if (opts.minVersion !== undefined && signed.version < opts.minVersion) {
    return fail(
      'rollback',
      `version ${signed.version} is older than the minimum accepted version ${opts.minVersion}: an old file is being served`,
    );
  }
  return undefined;
}

/** What a signed file that is no snapshot is: one of the aggregators' files, or something else. */
function whatElse(content: unknown): string {
  if (IndexFile.safeParse(content).success) return "a published folder's index";
  if (FeedPage.safeParse(content).success) return 'a page of the change feed';
  return 'not { facility, listings, version, generated_at, expires_at, kid }';
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function publicKeyOf(jwk: Jwk): KeyObject | undefined {
  try {
    const key = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: jwk.x }, format: 'jwk' });
    return Buffer.from(jwk.x, 'base64url').length === 32 ? key : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A signed file that is no snapshot: a tombstone of the expected facility, still valid and not older than the reader
 * accepts, says it was withdrawn (in the widget's order of checks); anything else is malformed.
 */
function withdrawalOrMalformed(content: unknown, opts: VerifyOptions): VerifyResult {
  const tombstone = Tombstone.safeParse(content);
  if (!tombstone.success)
    return fail(
      'malformed',
      `${opts.name ?? 'listings.json'} is signed, but is ${whatElse(content)}, not a facility's snapshot: verify a ` +
        "facility's listings.json or its folder (OUT/<facility>)",
    );
  const t = tombstone.data;
  if (opts.facility !== undefined && t.facility !== opts.facility)
    return fail('facility_mismatch', `this is the tombstone of facility ${t.facility}, not ${opts.facility}`);
  const stale = staleOrOld(t, opts);
  if (stale) return stale;
  return fail(
    'withdrawn',
    `facility ${t.facility} was withdrawn at ${t.withdrawn_at} (version ${t.version}, a signed tombstone): there is no snapshot to use`,
  );
}
