import { describe, expect, it } from 'vitest';
import { emailForms, emailKey, hiddenCharacterIn, normalEmail, normalizing } from './emails.ts';

const DECOMPOSED = 'zoe\u0301@example.com';
const PRECOMPOSED = 'zo\u00e9@example.com';

describe('an email in its normal form', () => {
  it('is one for the forms a person cannot tell apart: composed or not, full-width, upper case', () => {
    expect(normalEmail(DECOMPOSED)).toBe(PRECOMPOSED);
    expect(normalEmail(PRECOMPOSED)).toBe(PRECOMPOSED);
    expect(normalEmail('\uff4fwner@example.com')).toBe('owner@example.com');
    expect(normalEmail(' OWNER@Example.COM ')).toBe('owner@example.com');
    expect(normalEmail('\uff2f\uff37\uff2e\uff25\uff32@example.com')).toBe('owner@example.com');
    for (const e of [PRECOMPOSED, 'owner@example.com']) expect(normalEmail(normalEmail(e))).toBe(normalEmail(e));
  });

  it('is refused, naming the character, when the address holds an invisible or control character', () => {
    for (const [typed, hidden] of [
      ['owner@example.com\u200b', 'U+200B'],
      ['ow\u00adner@example.com', 'U+00AD'],
      ['\u202eowner@example.com', 'U+202E'],
      ['owner@exa\u0007mple.com', 'U+0007'],
      // Invisible but neither a format nor a control character: Unicode's default-ignorable code points.
      ['owner\u034f@example.com', 'U+034F'],
      ['owner@example.com\ufe0f', 'U+FE0F'],
    ]) {
      expect(hiddenCharacterIn(typed!)).toBe(hidden);
      expect(() => normalEmail(typed!)).toThrow(expect.objectContaining({ code: 'invalid_email' }));
      expect(() => normalEmail(typed!)).toThrow(hidden);
    }
    expect(() => normalEmail('not an address')).toThrow(expect.objectContaining({ code: 'invalid_email' }));
    // A Hangul filler is invisible too, in the form NFKC gives it.
    expect(() => normalEmail('owner\u3164@example.com')).toThrow(expect.objectContaining({ code: 'invalid_email' }));
  });

  it('counts a login under its normal form, valid or not', () => {
    expect(emailKey('\uff2fwner@example.com')).toBe('owner@example.com');
    expect(emailKey(' nobody ')).toBe('nobody');
    expect(emailForms('Zoe\u0301@example.com')).toEqual({ asTyped: DECOMPOSED, normal: PRECOMPOSED });
  });
});

describe('moving stored emails to their normal form', () => {
  it('rewrites an email alone in its normal form and leaves those that share one, or hide a character', () => {
    const stored = [
      DECOMPOSED,
      'owner@example.com',
      '\uff4fwner@example.com',
      'anna@example.com',
      'x\u200b@example.com',
    ];
    expect(normalizing(stored)).toEqual({
      rewrites: [{ from: DECOMPOSED, to: PRECOMPOSED }],
      kept: [
        { email: 'owner@example.com', reason: 'shared_normal_form' },
        { email: '\uff4fwner@example.com', reason: 'shared_normal_form' },
        { email: 'x\u200b@example.com', reason: 'hidden_character' },
      ],
    });
  });
});
