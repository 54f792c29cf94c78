// Operators' sessions as values: random tokens (only their digest is stored), idle and absolute expiry. No I/O.
import { createHash, randomBytes } from 'node:crypto';

/** A session unused for this long ends: a panel left open on a shared desk. */
export const SESSION_IDLE_MS = 30 * 60 * 1000;
/** A session ends this long after login however busy it is: a stolen cookie is not useful for long. */
export const SESSION_ABSOLUTE_MS = 12 * 60 * 60 * 1000;
/** A login whose password was right waits this long for its two-factor code, then starts again. */
export const PENDING_LOGIN_MS = 5 * 60 * 1000;
/** Last-seen times are written at most this often, so every page view is not a write. */
export const SESSION_TOUCH_MS = 60 * 1000;

export interface SessionRow {
  digest: string;
  operator_id: string;
  csrf: string;
  created_at: string;
  seen_at: string;
  /** Made by a login that gave a two-factor code, or by the enrolment that turned two-factor on. */
  two_factor: boolean;
}

export const randomToken = (): string => randomBytes(32).toString('base64url');

export function tokenDigest(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** A new session: the token goes in the cookie, the row (its digest, never the token) in the store. */
export function newSession(
  operatorId: string,
  now = new Date(),
  how = { twoFactor: false },
): { token: string; row: SessionRow } {
  const token = randomToken();
  const at = now.toISOString();
  const row = { digest: tokenDigest(token), operator_id: operatorId, csrf: randomToken(), created_at: at, seen_at: at };
  return { token, row: { ...row, two_factor: how.twoFactor } };
}

/**
 * A session is a complete login of its account unless the account has two-factor and the session was made without a
 * code: a password login that began before enrolment and ended after it, say. Such a session gives nothing.
 */
export const sessionComplete = (row: SessionRow, twoFactorOn: boolean): boolean => !twoFactorOn || row.two_factor;

export function sessionLive(row: SessionRow, now = new Date()): boolean {
  const t = now.getTime();
  return t - Date.parse(row.seen_at) < SESSION_IDLE_MS && t - Date.parse(row.created_at) < SESSION_ABSOLUTE_MS;
}

export function needsTouch(row: SessionRow, now = new Date()): boolean {
  return now.getTime() - Date.parse(row.seen_at) >= SESSION_TOUCH_MS;
}
