// A key's limits for the CLI and the panel's server: shared/key-limits.ts's rules, refusing with the server's own error.
import * as rules from '../../shared/key-limits.ts';
import { ListingsError } from '../errors.ts';

export { formatRate, MAX_LABEL_LENGTH } from '../../shared/key-limits.ts';

/** A rule's refusal as a ListingsError (`invalid_key_limit`), which the CLI and the panel already report. */
function refusing<T extends unknown[], R>(parse: (...args: T) => R): (...args: T) => R {
  return (...args) => {
    try {
      return parse(...args);
    } catch (err) {
      if (err instanceof rules.KeyLimitError) throw new ListingsError('invalid_key_limit', err.message);
      throw err;
    }
  };
}

export const parseRate = refusing(rules.parseRate);
export const parseBurst = refusing(rules.parseBurst);
export const parseLabel = refusing(rules.parseLabel);
export const parseOrigin = refusing(rules.parseOrigin);

/** A key's label by the one rule (parseLabel), a refusal naming the field: what every store writes. */
export function checkLabel(value: string): string {
  try {
    return rules.parseLabel(value);
  } catch (err) {
    if (err instanceof rules.KeyLimitError) throw new ListingsError('invalid_key_limit', `label: ${err.message}`);
    throw err;
  }
}
