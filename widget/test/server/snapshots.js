// Signed snapshot fixtures, made when the test runner starts: an Ed25519 key pair (node:crypto), listings.json, its
// detached .sig (base64url over the exact bytes) and keys.json, plus tampered, expired and wrongly signed variants.
import { createHash, generateKeyPairSync, sign } from 'node:crypto';
import { absolutize, fixtures } from './fixtures.js';

const DAY = 24 * 60 * 60 * 1000;

function keyPair() {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const { x } = publicKey.export({ format: 'jwk' });
  const kid = createHash('sha256').update(Buffer.from(x, 'base64url')).digest('base64url').slice(0, 16);
  return { privateKey, jwk: { kty: 'OKP', crv: 'Ed25519', x, kid }, kid };
}

const trusted = keyPair(); // published in keys.json
const stranger = keyPair(); // not published

function body(origin, { kid = trusted.kid, expiresIn = 7 * DAY } = {}) {
  const now = Date.now();
  const snapshot = {
    facility: { id: 'wro-1', name: 'SafeBox Wroclaw Centrum' },
    listings: fixtures.basic.map((l) => absolutize(l, origin)),
    version: 3,
    generated_at: new Date(now - DAY).toISOString(),
    expires_at: new Date(now + expiresIn).toISOString(),
    kid,
  };
  return Buffer.from(`${JSON.stringify(snapshot, null, 2)}\n`);
}

function signature(bytes, key, kid = key.kid) {
  return Buffer.from(JSON.stringify({ alg: 'EdDSA', kid, sig: sign(null, bytes, key.privateKey).toString('base64url') }));
}

/** Flips one byte inside the first price, so the JSON stays valid and only the signature can tell. */
function tamper(bytes) {
  const copy = Buffer.from(bytes);
  const at = copy.indexOf('"gross": 32900') + '"gross": '.length;
  copy[at] = '4'.charCodeAt(0); // 32900 -> 42900
  return copy;
}

/** Every snapshot file by path (`/snap/<variant>/listings.json[.sig]`, `/snap/keys.json`), made once per origin. */
function build(origin) {
  const valid = body(origin);
  const expired = body(origin, { expiresIn: -DAY });
  const byStranger = body(origin, { kid: stranger.kid });
  const claimsStranger = body(origin, { kid: stranger.kid });
  const variants = {
    valid: [valid, signature(valid, trusted)],
    tampered: [tamper(valid), signature(valid, trusted)],
    expired: [expired, signature(expired, trusted)],
    'unknown-kid': [byStranger, signature(byStranger, stranger)],
    'wrong-key': [valid, signature(valid, stranger, trusted.kid)],
    'kid-mismatch': [claimsStranger, signature(claimsStranger, trusted)],
    'no-signature': [valid, null],
  };
  const files = new Map([['/snap/keys.json', Buffer.from(JSON.stringify({ keys: [trusted.jwk] }))]]);
  for (const [name, [json, sig]] of Object.entries(variants)) {
    files.set(`/snap/${name}/listings.json`, json);
    if (sig) files.set(`/snap/${name}/listings.json.sig`, sig);
  }
  return files;
}

const byOrigin = new Map();

export function snapshotFile(origin, path) {
  if (!byOrigin.has(origin)) byOrigin.set(origin, build(origin));
  return byOrigin.get(origin).get(path);
}
