// Login attempts limited per account and per address: a guesser is slowed on one account and from one place alike.
export interface LoginLimits {
  /** Failures allowed per account, and per address, within the window. */
  perAccount: number;
  perAddress: number;
  windowMs: number;
}

export const DEFAULT_LOGIN_LIMITS: LoginLimits = { perAccount: 5, perAddress: 20, windowMs: 15 * 60 * 1000 };

/** Failures counted in memory, per panel process; a success clears its account's count, never its address's. */
export class LoginLimiter {
  private readonly failures = new Map<string, number[]>();

  constructor(
    private readonly limits: LoginLimits = DEFAULT_LOGIN_LIMITS,
    private readonly now: () => number = Date.now,
  ) {}

  /** Seconds until a try is allowed again for this account from this address, or 0. */
  retryAfter(account: string, address: string): number {
    const wait = (key: string, max: number) => {
      const times = this.recent(key);
      return times.length < max ? 0 : Math.ceil((times[0]! + this.limits.windowMs - this.now()) / 1000);
    };
    return Math.max(wait(`a:${account}`, this.limits.perAccount), wait(`ip:${address}`, this.limits.perAddress));
  }

  failed(account: string, address: string): void {
    for (const key of [`a:${account}`, `ip:${address}`]) this.failures.set(key, [...this.recent(key), this.now()]);
  }

  succeeded(account: string): void {
    this.failures.delete(`a:${account}`);
  }

  private recent(key: string): number[] {
    const since = this.now() - this.limits.windowMs;
    const times = (this.failures.get(key) ?? []).filter((t) => t > since);
    if (times.length === 0) this.failures.delete(key);
    else this.failures.set(key, times);
    return times;
  }
}
