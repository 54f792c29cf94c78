// Operators' password rule, shared by `listings operators` and the panel: its length in characters as a person
// counts them, the same when it is set and when it is checked at login.
import { describe, expect, it } from 'vitest';
import { checkPassword, hashPassword, MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH, verifyPassword } from './passwords.ts';

describe('a password', () => {
  it('of MAX_PASSWORD_LENGTH emoji is taken, logs in, and one more is refused', async () => {
    const longest = '🔑'.repeat(MAX_PASSWORD_LENGTH);
    expect(() => checkPassword(longest)).not.toThrow();
    expect(await verifyPassword(longest, await hashPassword(longest))).toBe(true);
    expect(() => checkPassword(longest + '🔑')).toThrow(expect.objectContaining({ code: 'weak_password' }));
    expect(() => checkPassword('🔑'.repeat(MIN_PASSWORD_LENGTH - 1))).toThrow(
      expect.objectContaining({ code: 'weak_password' }),
    );
  });
});
