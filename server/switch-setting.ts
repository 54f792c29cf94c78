// On/off settings from the environment, read one way for every one of them: a value that is neither on nor off is
// refused, naming the variable, rather than taken as off.
import { ListingsError } from './errors.ts';

const ON = new Set(['1', 'true']);
const OFF = new Set(['0', 'false', '']);

/** `1` or `true` is on; `0`, `false`, empty or unset is off; anything else is an invalid_config error (exit 2). */
export function switchOf(env: Record<string, string | undefined>, name: string): boolean {
  const value = env[name] ?? '';
  if (ON.has(value)) return true;
  if (OFF.has(value)) return false;
  throw new ListingsError('invalid_config', `${name}=${value}: expected 1 or true (on), 0 or false (off)`);
}
