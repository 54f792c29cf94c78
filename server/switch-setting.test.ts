// On/off variables (PANEL_REQUIRE_2FA, WEBHOOKS_ALLOW_PRIVATE, LOG) read one way: a value neither on nor off refused.
import { describe, expect, it } from 'vitest';
import { switchOf } from './switch-setting.ts';

describe('switchOf', () => {
  it.each(['1', 'true'])('%s is on', (value) => expect(switchOf({ X: value }, 'X')).toBe(true));
  it.each(['0', 'false', ''])('%j is off', (value) => expect(switchOf({ X: value }, 'X')).toBe(false));
  it('unset is off', () => expect(switchOf({}, 'X')).toBe(false));
  it.each(['yes', 'TRUE', 'on', 'off', ' 1'])('%j is refused, naming the variable', (value) => {
    expect(() => switchOf({ X: value }, 'X')).toThrow(expect.objectContaining({ code: 'invalid_config' }));
    expect(() => switchOf({ X: value }, 'X')).toThrow(`X=${value}:`);
  });
});
