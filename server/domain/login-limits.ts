// Login attempts limited per account and per address: a guesser is slowed on one account and from one place alike. No I/O.

export interface LoginLimits {
  /** Failures allowed per account, and per address, within the window. */
  perAccount: number;
  perAddress: number;
  windowMs: number;
}

export const DEFAULT_LOGIN_LIMITS: LoginLimits = { perAccount: 5, perAddress: 20, windowMs: 15 * 60 * 1000 };

/** A login that may go on (its failure already counted, `attempt` names it), or the seconds until one may. */
export type LoginGate = { attempt: number } | { retryAfter: number };

/** The failures within the window, oldest first, as ISO 8601 times: what the store reads for one login. */
export interface RecentFailures {
  account: readonly string[];
  address: readonly string[];
}

/** Failures newer than this count; older ones are forgotten. */
export const countedSince = (limits: LoginLimits, now: Date): Date => new Date(now.getTime() - limits.windowMs);

/** Seconds until enough failures have left the window for one more try on this account from this address, or 0. */
export function retryAfterOf(recent: RecentFailures, limits: LoginLimits, now: Date): number {
  const wait = (times: readonly string[], max: number) =>
    times.length < max
      ? 0
      : Math.ceil((Date.parse(times[times.length - max]!) + limits.windowMs - now.getTime()) / 1000);
  return Math.max(wait(recent.account, limits.perAccount), wait(recent.address, limits.perAddress));
}
