// Key files and the snapshot encoding: kid derivation, JWK shape, private key mode, no silent overwrite, exact bytes.
import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, verify } from 'node:crypto';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ListingsError } from '../../errors.ts';
import { Jwk, type Snapshot } from '../../../shared/listing.ts';
import { tempDir } from '../../../test/helpers/fixture.ts';
import { contentDigestOf, encodeSnapshot, signatureOf } from './format.ts';
import { generateSigningKey, jwkOf, kidOf, loadSigningKey, signingKeyOf } from './keygen.ts';
import { bareFacility } from '../../../test/helpers/rental-info.ts';

let cleanup = () => {};
afterEach(() => cleanup());

describe('kid and JWK', () => {
  it('kid is base64url of the first 16 bytes of SHA-256 over the raw public key', () => {
    const { publicKey } = generateKeyPairSync('ed25519');
    const raw = publicKey.export({ format: 'der', type: 'spki' }).subarray(-32); // SPKI ends with the 32 raw bytes
    expect(kidOf(publicKey)).toBe(createHash('sha256').update(raw).digest().subarray(0, 16).toString('base64url'));
    expect(kidOf(publicKey)).toMatch(/^[A-Za-z0-9_-]{22}$/);
    const jwk = Jwk.parse(jwkOf(publicKey));
    expect(jwk).toEqual({ kty: 'OKP', crv: 'Ed25519', x: raw.toString('base64url'), kid: kidOf(publicKey) });
  });
});

describe('generateSigningKey', () => {
  it('writes a 0600 PKCS#8 private key, the SPKI PEM and the JWK of the same key', async () => {
    const t = tempDir();
    cleanup = t.cleanup;
    const r = await generateSigningKey(join(t.dir, 'keys'));
    expect(statSync(r.private_key).mode & 0o777).toBe(0o600);
    const pem = readFileSync(r.private_key, 'utf8');
    expect(pem).toMatch(/^-----BEGIN PRIVATE KEY-----/);
    const publicKey = createPublicKey(createPrivateKey(pem));
    expect(kidOf(publicKey)).toBe(r.kid);
    expect(readFileSync(r.public_key_pem, 'utf8')).toMatch(/^-----BEGIN PUBLIC KEY-----/);
    expect(kidOf(createPublicKey(readFileSync(r.public_key_pem)))).toBe(r.kid);
    expect(JSON.parse(readFileSync(r.public_key_jwk, 'utf8'))).toEqual(jwkOf(publicKey));
    const loaded = await loadSigningKey(r.private_key);
    expect(loaded.kid).toBe(r.kid);
    expect(loaded.warning).toBeUndefined();
  });

  it('refuses to overwrite a private key unless forced', async () => {
    const t = tempDir();
    cleanup = t.cleanup;
    const first = await generateSigningKey(t.dir);
    const before = readFileSync(first.private_key, 'utf8');
    await expect(generateSigningKey(t.dir)).rejects.toMatchObject({ code: 'key_exists' });
    expect(readFileSync(first.private_key, 'utf8')).toBe(before);
    const second = await generateSigningKey(t.dir, { force: true });
    expect(second.kid).not.toBe(first.kid);
    expect(statSync(second.private_key).mode & 0o777).toBe(0o600);
  });

  it('will not sign with a key that is not Ed25519', async () => {
    const t = tempDir();
    cleanup = t.cleanup;
    const file = join(t.dir, 'ec.pem');
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    writeFileSync(file, privateKey.export({ format: 'pem', type: 'pkcs8' }), { mode: 0o600 });
    await expect(loadSigningKey(file)).rejects.toBeInstanceOf(ListingsError);
    await expect(loadSigningKey(file)).rejects.toMatchObject({ code: 'invalid_signing_key' });
  });
});

describe('encodeSnapshot', () => {
  const key = signingKeyOf(generateKeyPairSync('ed25519').privateKey);
  const snapshot: Snapshot = {
    facility: bareFacility('wro-1', 'Zażółć "gęślą" jaźń'),
    listings: [],
    version: 12,
    generated_at: '2030-01-01T00:00:00Z',
    expires_at: '2030-01-08T00:00:00Z',
    kid: key.kid,
  };

  it('is exactly JSON.stringify(snapshot) and a newline, and its digest covers facility and listings only', () => {
    const { bytes, contentDigest } = encodeSnapshot(snapshot);
    expect(bytes.toString('utf8')).toBe(`${JSON.stringify(snapshot)}\n`);
    expect(Object.keys(JSON.parse(bytes.toString()))).toEqual([
      'facility',
      'listings',
      'version',
      'generated_at',
      'expires_at',
      'kid',
    ]);
    expect(contentDigest).toBe(contentDigestOf(snapshot));
    expect(encodeSnapshot({ ...snapshot, version: 13, generated_at: '2031-01-01T00:00:00Z' }).contentDigest).toBe(
      contentDigest,
    );
    expect(encodeSnapshot({ ...snapshot, facility: bareFacility('wro-1', 'Other') }).contentDigest).not.toBe(
      contentDigest,
    );
  });

  it('signs the exact bytes with Ed25519', () => {
    const { bytes } = encodeSnapshot(snapshot);
    const sig = signatureOf(bytes, key);
    expect(sig).toMatchObject({ alg: 'EdDSA', kid: key.kid });
    expect(verify(null, bytes, key.publicKey, Buffer.from(sig.sig, 'base64url'))).toBe(true);
  });
});
