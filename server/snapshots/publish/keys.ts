// keys.json and keys/<kid>.pem on a target: the current key first, older kids kept while something they signed is unexpired.
import { ListingsError } from '../../errors.ts';
import { Jwks, type Jwk } from '../../../shared/listing.ts';
import type { SnapshotLedger } from '../../store/ledger.ts';
import { jwkOf, publicPemOf, type SigningKey } from '../format/keygen.ts';
import { KEYS_KEY, keysMeta, pemKey, pemMeta } from '../targets/layout.ts';
import type { Target } from '../targets/target.ts';

export interface KeysPlan {
  text: string;
  /** keys.json must be (re)written. */
  changed: boolean;
  /** The current key's PEM is not there yet (its kid is new to keys.json). */
  pemNeeded: boolean;
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
  return { text, changed: existing?.toString('utf8') !== text, pemNeeded: !previous.some((k) => k.kid === key.kid) };
}

/** The PEM before keys.json: whoever finds a kid in keys.json finds its PEM too. */
export async function writeKeys(
  target: Target,
  key: SigningKey,
  plan: KeysPlan,
): Promise<{ objects: number; bytes: number }> {
  let objects = 0;
  let bytes = 0;
  if (plan.pemNeeded) {
    const pem = Buffer.from(publicPemOf(key.publicKey));
    await target.put(pemKey(key.kid), pem, pemMeta);
    objects++;
    bytes += pem.length;
  }
  if (plan.changed) {
    await target.put(KEYS_KEY, Buffer.from(plan.text), keysMeta);
    objects++;
    bytes += Buffer.byteLength(plan.text);
  }
  return { objects, bytes };
}
