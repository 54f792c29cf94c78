// Signed snapshot fixtures, made when the test runner starts: an Ed25519 key pair (node:crypto), facility folders in the
// consistent layout (v<N>/listings.json and .sig, then the pointer pair) and keys.json, plus an older release's layout,
// a pointer caught mid-publish, tampered, renumbered, expired and wrongly signed variants, and another facility's.
import { createHash, generateKeyPairSync, sign } from 'node:crypto';
import { absolutize, FACILITY, fixtures, snapshotTermsListings, T0, TERMS_FACILITY } from './fixtures.js';

const DAY = 24 * 60 * 60 * 1000;

function keyPair() {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const { x } = publicKey.export({ format: 'jwk' });
  const kid = createHash('sha256').update(Buffer.from(x, 'base64url')).digest('base64url').slice(0, 16);
  return { privateKey, jwk: { kty: 'OKP', crv: 'Ed25519', x, kid }, kid };
}

const trusted = keyPair(); // published in keys.json
const stranger = keyPair(); // not published

function body(origin, { version = 3, kid = trusted.kid, expiresIn = 7 * DAY, facility = FACILITY, listings } = {}) {
  const now = Date.now();
  const snapshot = {
    facility,
    listings: (listings ?? fixtures.basic).map((l) => absolutize(l, origin)),
    version,
    generated_at: new Date(now - DAY + version * 60_000).toISOString(), // one version, one time: no two alike
    expires_at: new Date(now + expiresIn).toISOString(),
    kid,
  };
  return Buffer.from(`${JSON.stringify(snapshot, null, 2)}\n`);
}

/** A withdrawn facility's tombstone (`snapshot withdraw`), in place of the pointer and at its own version. */
function tombstone({ version = 4, expiresIn = 7 * DAY } = {}) {
  const now = Date.now();
  const t = {
    facility: FACILITY.id,
    state: 'withdrawn',
    version,
    withdrawn_at: new Date(now - DAY).toISOString(),
    generated_at: new Date(now - DAY).toISOString(),
    expires_at: new Date(now + expiresIn).toISOString(),
    kid: trusted.kid,
  };
  return Buffer.from(`${JSON.stringify(t)}\n`);
}

function signature(bytes, key = trusted, kid = key.kid) {
  return Buffer.from(
    JSON.stringify({ alg: 'EdDSA', kid, sig: sign(null, bytes, key.privateKey).toString('base64url') }),
  );
}

/** Flips one byte inside the first price, so the JSON stays valid and only the signature can tell. */
function tamper(bytes) {
  const copy = Buffer.from(bytes);
  const at = copy.indexOf('"gross": 32900') + '"gross": '.length;
  copy[at] = '4'.charCodeAt(0); // 32900 -> 42900
  return copy;
}

/** The same bytes naming another version: still valid JSON, signed by nobody. */
function renumber(bytes, version) {
  return Buffer.from(bytes.toString('utf8').replace(/"version": ?\d+/, `"version": ${version}`));
}

/**
 * A facility folder in the consistent layout (contract, "Signed snapshots"): each version's immutable
 * `v<N>/listings.json` and `.sig`, then the pointer pair with the last version's bytes.
 */
function published(...versions) {
  const files = {};
  for (const [json, sig] of versions) {
    const { version } = JSON.parse(json.toString('utf8'));
    files[`v${version}/listings.json`] = json;
    files[`v${version}/listings.json.sig`] = sig;
  }
  const [json, sig] = versions.at(-1);
  return { ...files, 'listings.json': json, 'listings.json.sig': sig };
}

/**
 * Every snapshot file by path (`/snap/<variant>/...`, `/snap/keys.json`), made once per origin. A file is its bytes,
 * or an HTTP status to answer with instead.
 */
function build(origin) {
  const v2 = body(origin, { version: 2 });
  const v3 = body(origin);
  const v4 = body(origin, { version: 4 });
  const expired = body(origin, { expiresIn: -DAY });
  const byStranger = body(origin, { kid: stranger.kid });
  const claimsStranger = body(origin, { kid: stranger.kid });
  const otherFacility = body(origin, { facility: { id: 'krk-1', name: 'SafeBox Krakow' } });
  const gone = tombstone();
  // Generated at the runner's start with every promotion before it expires, each with its times (issue 44).
  const timed = body(origin, {
    expiresIn: 14 * DAY,
    facility: TERMS_FACILITY,
    listings: snapshotTermsListings(T0),
  });
  const variants = {
    valid: published([v2, signature(v2)], [v3, signature(v3)]),
    // Between the publisher's two pointer writes: listings.json is version 4 already, its .sig still version 3's.
    'mid-publish': { ...published([v3, signature(v3)], [v4, signature(v4)]), 'listings.json.sig': signature(v3) },
    // Exported by an older release: no v<N>/ folders, the signature beside the file.
    'old-layout': { 'listings.json': v3, 'listings.json.sig': signature(v3) },
    tampered: { ...published([v3, signature(v3)]), 'listings.json': tamper(v3) },
    // Version 4's bytes claiming to be version 3, to be checked against version 3's genuine signature.
    renumbered: { ...published([v3, signature(v3)], [v4, signature(v4)]), 'listings.json': renumber(v4, 3) },
    'signature-down': { ...published([v3, signature(v3)]), 'v3/listings.json.sig': 503 },
    expired: published([expired, signature(expired)]),
    'unknown-kid': published([byStranger, signature(byStranger, stranger)]),
    'wrong-key': published([v3, signature(v3, stranger, trusted.kid)]),
    'kid-mismatch': published([claimsStranger, signature(claimsStranger)]),
    'no-signature': { 'listings.json': v3 },
    // Genuine and validly signed, but another facility's: only a reader that pins the facility can tell.
    'other-facility': published([otherFacility, signature(otherFacility)]),
    withdrawn: published([v3, signature(v3)], [gone, signature(gone)]),
    promotions: published([timed, signature(timed)]),
    'withdrawn-tampered': { ...published([gone, signature(gone)]), 'listings.json': renumber(gone, 5) },
  };
  const files = new Map([
    ['/snap/keys.json', Buffer.from(JSON.stringify({ keys: [trusted.jwk] }))],
    ['/snap/keys-down.json', 503], // the publisher's host in an outage
  ]);
  for (const [name, folder] of Object.entries(variants)) {
    for (const [path, file] of Object.entries(folder)) files.set(`/snap/${name}/${path}`, file);
  }
  return files;
}

const byOrigin = new Map();

/** The bytes (or the status) served at `path`; undefined: 404. */
export function snapshotFile(origin, path) {
  if (!byOrigin.has(origin)) byOrigin.set(origin, build(origin));
  return byOrigin.get(origin).get(path);
}

/** The contract's Cache-Control: a version's files never change; the pointer and keys.json may. */
export function cacheControlOf(path) {
  return /\/v\d+\/[^/]+$/.test(path) ? 'public, max-age=31536000, immutable' : 'no-cache';
}
