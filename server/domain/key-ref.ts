// A key's partner reference (`ref`): the name a partner's clicks are counted under, unique within a facility.
import { ListingsError } from '../errors.ts';
import { KeyLimitError, parseRef, REF_PATTERN } from '../../shared/key-limits.ts';

export { REF_PATTERN };
const REF_MAX = 40;

/** `ref` by the panel's rule (shared/key-limits.ts parseRef, trimmed), or a refusal in the panel's words. */
export function checkRef(value: string): string {
  try {
    return parseRef(value);
  } catch (err) {
    if (err instanceof KeyLimitError) throw new ListingsError('invalid_ref', `ref: ${err.message}`);
    throw err;
  }
}

/** The label as a ref: accents dropped, lower case, runs of anything else as one "-"; empty when nothing is left. */
export function refOfLabel(label: string): string {
  return (
    label
      .normalize('NFKD')
      .replace(/\p{M}/gu, '')
      .toLowerCase()
      // Letters NFKD leaves whole: Polish ł, German ß, Nordic ø, Croatian đ.
      .replace(/[łßøđ]/g, (c) => ({ ł: 'l', ß: 'ss', ø: 'o', đ: 'd' })[c]!)
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+/, '')
      .slice(0, REF_MAX)
      .replace(/-+$/, '')
  );
}

/** A key id (`key_` + 16 letters and digits) as a ref: `key-` + the rest in lower case. */
export const refOfKeyId = (id: string): string => `key-${id.slice(4).toLowerCase()}`.slice(0, REF_MAX);

/** The ref a new key gets when none is given: from its label, else its id; `-2`, `-3`... when the facility has it. */
export function defaultRef(label: string, keyId: string, taken: ReadonlySet<string>): string {
  const base = refOfLabel(label) || refOfKeyId(keyId);
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) {
    const suffix = `-${n}`;
    const ref = base.slice(0, REF_MAX - suffix.length).replace(/-+$/, '') + suffix;
    if (!taken.has(ref)) return ref;
  }
}

export function refTaken(ref: string, facilityId: string): ListingsError {
  return new ListingsError('ref_taken', `ref "${ref}" is taken by another key of facility ${facilityId}`);
}
