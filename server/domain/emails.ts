// Operators' emails in one normal form (NFKC, then lower case) for storing, comparing and counting, so that forms a
// person cannot tell apart are one account; an address holding an invisible or control character is refused.
import { ListingsError } from '../errors.ts';

/**
 * A format character (zero-width space, soft hyphen, bidi marks...), a control character, or any other code point
 * Unicode says a renderer may draw as nothing (a grapheme joiner, a variation selector, a Hangul filler).
 */
const HIDDEN = /[\p{Cf}\p{Cc}\p{Default_Ignorable_Code_Point}]/u;

/** The normal form of what was typed, valid or not: how an account is stored, looked up and counted. */
export const emailKey = (typed: string): string => typed.normalize('NFKC').trim().toLowerCase();

/**
 * The form an address was stored in before emails had a normal form (trimmed, lower case): an account whose normal form
 * another shares keeps it, and is found by it (emailForms).
 */
const storedBefore = (typed: string): string => typed.trim().toLowerCase();

/** The forms an account may be stored under for `typed`, the one stored as typed first, then the normal form. */
export const emailForms = (typed: string) => ({ asTyped: storedBefore(typed), normal: emailKey(typed) });

/** `U+200B` for the first invisible or control character of `s`, or undefined. */
export function hiddenCharacterIn(s: string): string | undefined {
  const found = HIDDEN.exec(s)?.[0];
  return found && `U+${found.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
}

/** The normal form of a new or typed address; refused when it holds a character no one sees or is no address. */
export function normalEmail(email: string): string {
  const e = emailKey(email);
  const hidden = hiddenCharacterIn(e);
  if (hidden)
    throw new ListingsError(
      'invalid_email',
      `"${e}" holds ${hidden}, an invisible or control character: type it again`,
    );
  if (!/^[^@\s]+@[^@\s]+$/.test(e) || e.length > 254)
    throw new ListingsError('invalid_email', `"${email}" is not an email address`);
  return e;
}

/** What moving stored emails to their normal form does: the rewrites, and the emails left as they are, and why. */
export interface EmailNormalizing {
  rewrites: { from: string; to: string }[];
  kept: { email: string; reason: 'shared_normal_form' | 'hidden_character' }[];
}

/**
 * Each stored email whose normal form no other stored email has is rewritten to it; those that share one are left as
 * they are (which account was meant is the owner's call, not a migration's), as is one holding a hidden character.
 */
export function normalizing(stored: readonly string[]): EmailNormalizing {
  const byKey = new Map<string, string[]>();
  for (const email of stored) byKey.set(emailKey(email), [...(byKey.get(emailKey(email)) ?? []), email]);
  const result: EmailNormalizing = { rewrites: [], kept: [] };
  for (const [key, emails] of byKey) {
    if (hiddenCharacterIn(key)) for (const email of emails) result.kept.push({ email, reason: 'hidden_character' });
    else if (emails.length > 1) for (const email of emails) result.kept.push({ email, reason: 'shared_normal_form' });
    else if (emails[0] !== key) result.rewrites.push({ from: emails[0]!, to: key });
  }
  return result;
}
