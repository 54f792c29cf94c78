// Device cookies (OWASP's pattern against lockout): a browser where an operator logged in carries a signed proof of it,
// and its logins count on a limit of their own instead of the account's. No I/O.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** A device cookie proves a login this recent: long enough for an operator who logs in a few times a season. */
export const DEVICE_COOKIE_MS = 180 * 24 * 60 * 60 * 1000;

/** What a device cookie is signed for: the account's id and, as the key, its stored password hash. */
export interface DeviceAccount {
  id: string;
  password_hash: string;
}

const VALUE = /^([A-Za-z0-9_]{1,64})\.([A-Za-z0-9_-]{22})\.(\d{1,15})\.([A-Za-z0-9_-]{43})$/;

/**
 * Signed with the account's password hash as the key: every panel on the database has it, a restart keeps it, nothing
 * else needs storing, and a new password (a new salt and hash) voids every device cookie of the account at once.
 */
const signatureOf = (account: DeviceAccount, device: string, issued: string): Buffer =>
  createHmac('sha256', account.password_hash)
    .update(`listings panel device\n${account.id}\n${device}\n${issued}`)
    .digest();

/** A new device cookie's value for `account`: its id, a random device id, when it was issued, and the signature. */
export function newDeviceCookie(account: DeviceAccount, nowMs: number): string {
  const device = randomBytes(16).toString('base64url');
  const issued = String(Math.floor(nowMs / 1000));
  return [account.id, device, issued, signatureOf(account, device, issued).toString('base64url')].join('.');
}

/** The device id a cookie value names, when it was signed for `account` (as it is now) within DEVICE_COOKIE_MS. */
export function deviceOf(value: string | undefined, account: DeviceAccount, nowMs: number): string | undefined {
  const [, id, device, issued, signature] = (value && VALUE.exec(value)) || [];
  if (id !== account.id || !device || !issued || !signature) return undefined;
  const age = nowMs - Number(issued) * 1000;
  if (age < -60_000 || age >= DEVICE_COOKIE_MS) return undefined;
  const given = Buffer.from(signature, 'base64url');
  const expected = signatureOf(account, device, issued);
  return given.length === expected.length && timingSafeEqual(given, expected) ? device : undefined;
}
