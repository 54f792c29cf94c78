// Two-factor codes as values: TOTP (RFC 6238: SHA-1, 6 digits, 30 s steps, what every authenticator app reads) by
// `otpauth`, and recovery codes, stored as digests. No I/O.
import { createHash, randomInt } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';

/** Seconds a code lasts; a code of the step before or after is accepted too, for clocks that drift. */
export const TOTP_PERIOD = 30;
const WINDOW = 1;
export const RECOVERY_CODE_COUNT = 10;

const totpOf = (secret: string, label = '', issuer = '') =>
  new TOTP({ secret: Secret.fromBase32(secret), label, issuer, algorithm: 'SHA1', digits: 6, period: TOTP_PERIOD });

/** A new secret: 160 bits, RFC 4226's recommended length, in base32 as authenticator apps take it. */
export const newTotpSecret = (): string => new Secret({ size: 20 }).base32;

/** The `otpauth://` URI the QR code carries: the issuer and the account name the app lists it under. */
export const totpUri = (secret: string, account: string, issuer: string): string =>
  totpOf(secret, account, issuer).toString();

/** The code an app shows at `nowMs` (for tests and the enrolment's own check). */
export const totpCodeAt = (secret: string, nowMs: number): string => totpOf(secret).generate({ timestamp: nowMs });

/** The time step a right code belongs to (to refuse it once used), or undefined when the code is wrong. */
export function totpStepOf(secret: string, code: string, nowMs: number): number | undefined {
  if (!/^\d{6}$/.test(code)) return undefined;
  const totp = totpOf(secret);
  const delta = totp.validate({ token: code, timestamp: nowMs, window: WINDOW });
  return delta === null ? undefined : totp.counter({ timestamp: nowMs }) + delta;
}

/** Letters and digits a reader cannot confuse (no 0/o, 1/l/i). */
const ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

/** Ten codes of ten characters (49 bits each), written `xxxxx-xxxxx`: each logs in once in place of a TOTP code. */
export function newRecoveryCodes(): string[] {
  const part = () => Array.from({ length: 5 }, () => ALPHABET[randomInt(ALPHABET.length)]).join('');
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => `${part()}-${part()}`);
}

/** What is stored of a recovery code: its SHA-256, however it was typed (case, spaces, the dash). */
export const recoveryDigest = (code: string): string =>
  createHash('sha256').update(code.toLowerCase().replace(/[\s-]/g, '')).digest('hex');

/** A code as typed: six digits are a TOTP code, ten letters and digits a recovery code. */
export function codeKind(code: string): 'totp' | 'recovery' | undefined {
  const plain = code.replace(/[\s-]/g, '');
  if (/^\d{6}$/.test(plain)) return 'totp';
  if (/^[a-z2-9]{10}$/i.test(plain)) return 'recovery';
  return undefined;
}
