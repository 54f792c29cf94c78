// Login attempts limited per account from one address, per account from anywhere, and per address, unless they come
// with a device cookie, which has a count of its own: a guesser is slowed on one account and from one place alike,
// while strangers' failures never hold back the operator's own browser. No I/O.

export interface LoginLimits {
  /** Failures allowed within the window on one account from anywhere: a ceiling on guesses spread over many addresses. */
  perAccount: number;
  /** Failures allowed within the window on one account from one address (default: perAccount). */
  perAccountFromAddress?: number;
  /** Failures allowed within the window from one address, on any accounts. */
  perAddress: number;
  /** Failures allowed within the window through one device cookie, after which it no longer exempts (default 5). */
  perDevice?: number;
  windowMs: number;
}

/**
 * 5 failures on an account from one address lock that address out of it; 50 from anywhere lock the account to every
 * browser without a device cookie of it, so that guesses spread over many addresses stay few; a device cookie's own 5
 * keep a stolen one from giving more guesses than an address has.
 */
export const DEFAULT_LOGIN_LIMITS: LoginLimits = {
  perAccount: 50,
  perAccountFromAddress: 5,
  perAddress: 20,
  perDevice: 5,
  windowMs: 15 * 60 * 1000,
};

/** One login try: the account asked for, the client's address group, and the device its valid device cookie names. */
export interface LoginTry {
  account: string;
  address: string;
  device?: string;
}

/** The subject under which an account's failures from one address are counted (an email holds no line break). */
export const pairOf = (account: string, address: string): string => `${account}\n${address}`;

/**
 * A login that may go on (its failure already counted, `attempt` names it; `byDevice` when it is counted on its device
 * cookie instead of the account), the seconds until one may, or `busy` when the caller's `admit` turned it away.
 */
export type LoginGate = { attempt: number; byDevice: boolean } | { retryAfter: number } | { busy: true };

/** Whether the caller takes a try the limits let through (its password check needs a slot of the panel's cap). */
export interface LoginAdmit {
  /**
   * Whether a try that no device cookie exempts would be taken now, asked before anything is written and taking
   * nothing: when not, the try's answer (turned away, or the limits' wait) is read from the counts without a write.
   */
  free(): boolean;
  /** Asked once the limits let a try through, before it is counted (`byDevice` as in LoginGate): false turns it away. */
  take(byDevice: boolean): boolean;
}

/** Every try the limits let through is taken: nothing caps what follows them. */
export const ADMIT_ALL: LoginAdmit = { free: () => true, take: () => true };

/** The failures within the window, oldest first, as ISO 8601 times: what the store reads for one login. */
export interface RecentFailures {
  account: readonly string[];
  /** The account's from this address. */
  pair: readonly string[];
  address: readonly string[];
}

/** Failures newer than this count; older ones are forgotten. */
export const countedSince = (limits: LoginLimits, now: Date): Date => new Date(now.getTime() - limits.windowMs);

/** Whether a device cookie with these recent failures still exempts its logins from the account's and address's limits. */
export const deviceExempts = (failures: readonly string[], limits: LoginLimits): boolean =>
  failures.length < (limits.perDevice ?? 5);

/** Seconds until enough failures have left the window for one more try on this account from this address, or 0. */
export function retryAfterOf(recent: RecentFailures, limits: LoginLimits, now: Date): number {
  const wait = (times: readonly string[], max: number) =>
    times.length < max
      ? 0
      : Math.ceil((Date.parse(times[times.length - max]!) + limits.windowMs - now.getTime()) / 1000);
  return Math.max(
    wait(recent.account, limits.perAccount),
    wait(recent.pair, limits.perAccountFromAddress ?? limits.perAccount),
    wait(recent.address, limits.perAddress),
  );
}

/** What the counts say of one try: counted on its device cookie, or the seconds it must wait (0: it may go on). */
export type LimitsSay = { byDevice: true } | { retryAfter: number };

/**
 * The answer to a try the caller has no room for (`LoginAdmit.free` false), from the counts alone: the limits' wait, or
 * turned away; undefined when its device cookie exempts it, which is taken without a slot and so must be counted.
 * Nothing is written for it: under a flood of logins the refusals take no write lock from the API's and the CLI's writes.
 */
export function refusedUnread(said: LimitsSay): LoginGate | undefined {
  if ('byDevice' in said) return undefined;
  return said.retryAfter > 0 ? said : { busy: true };
}
