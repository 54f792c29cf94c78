// verifySnapshot: each way a snapshot can be wrong fails with its own reason; a good one says what it checked.
import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Snapshot } from '../../../shared/listing.ts';
import { signedFile, type Tombstone } from './feed-format.ts';
import { encodeSnapshot, serialiseSignature, signatureOf } from './format.ts';
import { jwkOf, signingKeyOf, type SigningKey } from './keygen.ts';
import { verifySnapshot } from './verify.ts';
import { bareFacility } from '../../../test/helpers/rental-info.ts';

const newKey = (): SigningKey => signingKeyOf(generateKeyPairSync('ed25519').privateKey);
const NOW = new Date('2030-01-01T00:00:00Z');

function snapshotOf(key: SigningKey, extra: Partial<Snapshot> = {}): Snapshot {
  return {
    facility: bareFacility('wro-1', 'SafeBox'),
    listings: [],
    version: 3,
    generated_at: '2029-12-31T00:00:00Z',
    expires_at: '2030-01-07T00:00:00Z',
    kid: key.kid,
    ...extra,
  };
}

function signed(key: SigningKey, extra: Partial<Snapshot> = {}) {
  const { bytes } = encodeSnapshot(snapshotOf(key, extra));
  return { bytes, sig: serialiseSignature(signatureOf(bytes, key)).toString() };
}

describe('verifySnapshot', () => {
  const key = newKey();
  const jwks = { keys: [jwkOf(key.publicKey)] };

  it('accepts a good snapshot and reports what it checked', () => {
    const { bytes, sig } = signed(key);
    const r = verifySnapshot(bytes, sig, JSON.stringify(jwks), { now: NOW, minVersion: 3 });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.checked).toEqual({
      bytes: bytes.length,
      alg: 'EdDSA',
      kid: key.kid,
      facility: bareFacility('wro-1', 'SafeBox'),
      version: 3,
      min_version: 3,
      generated_at: '2029-12-31T00:00:00Z',
      expires_at: '2030-01-07T00:00:00Z',
      expires_in_seconds: 6 * 86_400,
      listings: 0,
    });
  });

  it('finds the key by kid among several (rotation)', () => {
    const { bytes, sig } = signed(key);
    const r = verifySnapshot(bytes, sig, { keys: [jwkOf(newKey().publicKey), jwkOf(key.publicKey)] }, { now: NOW });
    expect(r.ok).toBe(true);
  });

  const failures: [string, () => ReturnType<typeof verifySnapshot>][] = [
    [
      'signature_invalid',
      () => {
        const { bytes, sig } = signed(key);
        const i = bytes.indexOf('"version":3') + 10;
        bytes[i] = '4'.charCodeAt(0);
        return verifySnapshot(bytes, sig, jwks, { now: NOW });
      },
    ],
    [
      'signature_invalid',
      () => {
        // The signature of another facility's file, by the same key.
        const other = signed(key, { facility: bareFacility('krk-1', 'Other') });
        return verifySnapshot(signed(key).bytes, other.sig, jwks, { now: NOW });
      },
    ],
    [
      'unknown_kid',
      () => {
        const { bytes, sig } = signed(key);
        return verifySnapshot(bytes, sig, { keys: [jwkOf(newKey().publicKey)] }, { now: NOW });
      },
    ],
    [
      'kid_mismatch',
      () => {
        // Re-signed with another key without updating the kid inside the file.
        const other = newKey();
        const { bytes } = signed(key);
        return verifySnapshot(
          bytes,
          signatureOf(bytes, other),
          { keys: [jwkOf(key.publicKey), jwkOf(other.publicKey)] },
          { now: NOW },
        );
      },
    ],
    [
      'expired',
      () => {
        const { bytes, sig } = signed(key, { expires_at: '2030-01-01T00:00:00Z' });
        return verifySnapshot(bytes, sig, jwks, { now: NOW });
      },
    ],
    [
      'rollback',
      () => {
        const { bytes, sig } = signed(key);
        return verifySnapshot(bytes, sig, jwks, { now: NOW, minVersion: 4 });
      },
    ],
    [
      'facility_mismatch',
      () => {
        const { bytes, sig } = signed(key);
        return verifySnapshot(bytes, sig, jwks, { now: NOW, facility: 'krk-1' });
      },
    ],
    [
      'malformed',
      () => {
        const { bytes } = signed(key);
        return verifySnapshot(bytes, '<html>not found</html>', jwks, { now: NOW });
      },
    ],
    [
      'malformed',
      () => {
        const { bytes, sig } = signed(key);
        return verifySnapshot(bytes, sig, { keys: [{ kty: 'RSA', kid: key.kid }] }, { now: NOW });
      },
    ],
    [
      'malformed',
      () => {
        // Correctly signed, but not a snapshot.
        const bytes = Buffer.from(JSON.stringify({ hello: 'world', kid: key.kid }));
        return verifySnapshot(bytes, signatureOf(bytes, key), jwks, { now: NOW });
      },
    ],
  ];

  it.each(failures.map(([reason, run], i) => [i, reason, run] as const))('case %i fails with %s', (_i, reason, run) => {
    const r = run();
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.reason).toBe(reason);
  });

  it('a signature of the wrong length is signature_invalid, not a crash', () => {
    const { bytes } = signed(key);
    const r = verifySnapshot(bytes, { alg: 'EdDSA', kid: key.kid, sig: 'AAAA' }, jwks, { now: NOW });
    expect(r).toMatchObject({ ok: false, reason: 'signature_invalid' });
  });
  it('accepts a snapshot signed before the richer listing data existed, and refuses one missing a field both shapes need', () => {
    const listing = {
      id: 'lst_0123456789abcdef0123',
      code: 'M-07',
      title: 'Medium unit',
      area_m2: 7.5,
      price: { gross: 32900, net: 26748, vat_rate: 23, currency: 'PLN', period: 'P1M' },
      dynamic_pricing: true,
      free_units: 3,
      rent_url: 'https://rent.example.com/wro-1/M-07',
      cover_photo: null,
      dimensions: { width_m: 2.5, depth_m: 3, height_m: null },
      description: 'Drive-up access.',
      min_rental_period: 'P1M',
      notice_period: 'P14D',
      deposit: { amount: 29900, currency: 'PLN' },
      photos: [],
    };
    const earlier = { ...snapshotOf(key), facility: { id: 'wro-1', name: 'SafeBox' }, listings: [listing] };
    const bytes = Buffer.from(JSON.stringify(earlier));
    const r = verifySnapshot(bytes, signatureOf(bytes, key), jwks, { now: NOW, facility: 'wro-1' });
    expect(r).toMatchObject({ ok: true, checked: { facility: { id: 'wro-1', name: 'SafeBox' }, listings: 1 } });
    // A listing without a field both shapes require is malformed in either.
    const { price: _price, ...priceless } = listing;
    const broken = Buffer.from(JSON.stringify({ ...earlier, listings: [priceless] }));
    expect(verifySnapshot(broken, signatureOf(broken, key), jwks, { now: NOW })).toMatchObject({
      ok: false,
      reason: 'malformed',
    });
  });

  describe('a tombstone', () => {
    const tombstone = (extra: Partial<Tombstone> = {}) => {
      const t: Tombstone = {
        facility: 'wro-1',
        state: 'withdrawn',
        version: 4,
        withdrawn_at: '2029-12-31T00:00:00Z',
        generated_at: '2029-12-31T00:00:00Z',
        expires_at: '2030-01-07T00:00:00Z',
        kid: key.kid,
        ...extra,
      };
      const { bytes, sig } = signedFile(t, key);
      return (opts: { minVersion?: number; facility?: string } = {}) =>
        verifySnapshot(bytes, sig.toString(), jwks, { now: NOW, ...opts });
    };

    it('is withdrawn while it is valid and not older than --min-version', () => {
      expect(tombstone()({ minVersion: 4, facility: 'wro-1' })).toMatchObject({ ok: false, reason: 'withdrawn' });
    });

    it('is expired once its expires_at has passed, as a snapshot is: an old one replayed says nothing', () => {
      expect(tombstone({ expires_at: '2030-01-01T00:00:00Z' })({ facility: 'wro-1' })).toMatchObject({
        ok: false,
        reason: 'expired',
      });
    });

    it('is a rollback below --min-version, as a snapshot is', () => {
      expect(tombstone()({ minVersion: 5 })).toMatchObject({ ok: false, reason: 'rollback' });
    });

    it("is another facility's before anything else", () => {
      const old = tombstone({ expires_at: '2029-12-31T00:00:00Z' });
      expect(old({ facility: 'ber-1', minVersion: 9 })).toMatchObject({ ok: false, reason: 'facility_mismatch' });
    });
  });
});
