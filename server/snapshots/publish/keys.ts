// keys.json and keys/<kid>.pem on a target: the current key first, older kids kept while something they signed is
// unexpired, and a PEM beside each key listed.
import { ListingsError } from '../../errors.ts';
import { Jwks, type Jwk } from '../../../shared/listing.ts';
import type { SnapshotLedger } from '../../store/ledger.ts';
import type { KeyObject } from 'node:crypto';
import { jwkOf, publicKeyOfJwk, publicPemOf, type SigningKey } from '../format/keygen.ts';
import { KEYS_KEY, keysMeta, pemKey, pemMeta } from '../targets/layout.ts';
import type { Target } from '../targets/target.ts';

export interface KeysPlan {
  text: string;
  /** keys.json must be (re)written. */
  changed: boolean;
  /** The keys it lists, the current one first. */
  keys: { kid: string; publicKey: KeyObject | undefined }[];
}

/**
 * A kid this database never published with (another machine, an older release) is kept: nothing says its files
 * expired. One it did publish with is dropped once the last version it signed on this target has expired.
 */
export async function planKeys(ledger: SnapshotLedger, target: Target, key: SigningKey, now: Date): Promise<KeysPlan> {
  const existing = await target.get(KEYS_KEY);
  let previous: Jwk[] = [];
  if (existing !== undefined) {
    let parsed: ReturnType<typeof Jwks.safeParse> | undefined;
    try {
      parsed = Jwks.safeParse(JSON.parse(existing.toString('utf8')));
    } catch {
      parsed = undefined;
    }
    if (!parsed?.success)
      throw new ListingsError(
        'invalid_keys_file',
        `${target.label}/${KEYS_KEY} is not a JWKS of Ed25519 keys; move it away or fix it, then publish again`,
      );
    previous = parsed.data.keys;
  }
  const neededUntil = await ledger.kidsNeededOn(target.recordKey);
  const kept = previous.filter((k) => {
    if (k.kid === key.kid) return false;
    const until = neededUntil.get(k.kid);
    return until === undefined || Date.parse(until) > now.getTime();
  });
  const text = `${JSON.stringify({ keys: [jwkOf(key.publicKey), ...kept] }, null, 2)}\n`;
  const keys = [
    { kid: key.kid, publicKey: key.publicKey },
    ...kept.map((k) => ({ kid: k.kid, publicKey: publicKeyOfJwk(k) })),
  ];
  return { text, changed: existing?.toString('utf8') !== text, keys };
}

/**
 * The PEMs before keys.json: whoever finds a kid in keys.json finds its PEM too. Each listed key whose PEM the target
 * lacks gets one, whether keys.json is new or not: a rotation adds the new key's JWK to keys.json by hand first.
 */
export async function writeKeys(
  target: Target,
  plan: KeysPlan,
): Promise<{ objects: number; bytes: number; keysJson: boolean }> {
  let objects = 0;
  let bytes = 0;
  for (const { kid, publicKey } of plan.keys) {
    if (!publicKey || (await target.get(pemKey(kid))) !== undefined) continue;
    const pem = Buffer.from(publicPemOf(publicKey));
    await target.put(pemKey(kid), pem, pemMeta);
    objects++;
    bytes += pem.length;
  }
  if (plan.changed) {
    await target.put(KEYS_KEY, Buffer.from(plan.text), keysMeta);
    objects++;
    bytes += Buffer.byteLength(plan.text);
  }
  return { objects, bytes, keysJson: plan.changed };
}
