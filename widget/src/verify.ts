// Checks a signed snapshot in the browser: WebCrypto Ed25519 over the exact bytes of listings.json, key chosen by kid.
import type { Jwks, SnapshotSignature } from '../../shared/listing.ts';
import { WidgetError } from './errors.ts';

function fromBase64Url(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/')); // forgiving-base64: padding is optional
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

function isSignature(value: unknown): value is SnapshotSignature {
  const v = value as Partial<SnapshotSignature> | null;
  return v?.alg === 'EdDSA' && typeof v.kid === 'string' && typeof v.sig === 'string' && /^[\w-]+$/.test(v.sig);
}

/**
 * Resolves with the signing key's id when `signature` is a valid Ed25519 signature of `bytes` by a key in `jwks`;
 * rejects with a WidgetError coded `signature_invalid`, `unknown_kid` or `verification_unavailable` otherwise.
 */
export async function verifySignature(bytes: ArrayBuffer, signature: unknown, jwks: unknown): Promise<string> {
  if (!isSignature(signature)) throw new WidgetError(0, 'signature_invalid');
  const keys = (jwks as Partial<Jwks> | null)?.keys;
  const jwk = Array.isArray(keys) ? keys.find((k) => k?.kid === signature.kid) : undefined;
  if (!jwk || jwk.kty !== 'OKP' || jwk.crv !== 'Ed25519' || typeof jwk.x !== 'string') {
    throw new WidgetError(0, 'unknown_kid');
  }
  const subtle = globalThis.crypto?.subtle; // absent outside secure contexts (plain http:)
  let key: CryptoKey;
  try {
    key = await subtle.importKey('jwk', { kty: 'OKP', crv: 'Ed25519', x: jwk.x }, { name: 'Ed25519' }, false, [
      'verify',
    ]);
  } catch (error) {
    const unsupported = !subtle || (error as Error).name === 'NotSupportedError'; // no Ed25519 in this browser
    throw new WidgetError(0, unsupported ? 'verification_unavailable' : 'signature_invalid');
  }
  let valid: boolean;
  try {
    valid = await subtle.verify({ name: 'Ed25519' }, key, fromBase64Url(signature.sig), bytes);
  } catch {
    valid = false;
  }
  if (!valid) throw new WidgetError(0, 'signature_invalid');
  return signature.kid;
}
