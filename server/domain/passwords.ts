// Operators' passwords as values: scrypt (memory-hard, from node:crypto) with a salt per user; only the hash is stored.
import { randomBytes, scrypt as scryptCb, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { longerThan } from '../../shared/text-length.ts';
import { ListingsError } from '../errors.ts';

const scrypt = (password: string, salt: Buffer, length: number, options: ScryptOptions) =>
  new Promise<Buffer>((resolve, reject) =>
    scryptCb(password, salt, length, options, (err, key) => (err ? reject(err) : resolve(key))),
  );

/** N = 2^15, r = 8, p = 1: OWASP's scrypt minimum, about 32 MiB and 50-100 ms a try on one core. */
const COST = { N: 2 ** 15, r: 8, p: 1, maxmem: 64 * 1024 * 1024 };
const HASH_BYTES = 32;
export const MIN_PASSWORD_LENGTH = 12;
export const MAX_PASSWORD_LENGTH = 1024;

/**
 * Refuses a password too short to resist guessing, or too long to hash cheaply; both in characters as a person counts
 * them (an emoji is one).
 */
export function checkPassword(password: string): void {
  if (!longerThan(password, MIN_PASSWORD_LENGTH - 1))
    throw new ListingsError('weak_password', `a password needs at least ${MIN_PASSWORD_LENGTH} characters`);
  if (longerThan(password, MAX_PASSWORD_LENGTH))
    throw new ListingsError('weak_password', `a password has at most ${MAX_PASSWORD_LENGTH} characters`);
}

/** `scrypt$N$r$p$salt$hash` (base64url): the parameters travel with the hash, so they can be raised later. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const hash = await scrypt(password, salt, HASH_BYTES, COST);
  return ['scrypt', COST.N, COST.r, COST.p, salt.toString('base64url'), hash.toString('base64url')].join('$');
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash || longerThan(password, MAX_PASSWORD_LENGTH)) return false;
  const expected = Buffer.from(hash, 'base64url');
  const options = { N: Number(n), r: Number(r), p: Number(p), maxmem: COST.maxmem };
  const actual = await scrypt(password, Buffer.from(salt, 'base64url'), expected.length, options);
  return timingSafeEqual(actual, expected);
}

/** Hashed once: an unknown account is checked against it, so a login takes as long whether the account exists or not. */
let decoy: Promise<string> | undefined;
export function decoyHash(): Promise<string> {
  decoy ??= hashPassword(randomBytes(16).toString('hex'));
  return decoy;
}
