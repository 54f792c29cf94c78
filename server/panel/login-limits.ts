// The panel's login limits: the rule and its clock here, the counts in the store, so every panel and a restart share them.
import { addressGroupOf } from '../domain/address-group.ts';
import { DEFAULT_LOGIN_LIMITS, type LoginGate, type LoginLimits } from '../domain/login-limits.ts';
import type { Store } from '../store/store.ts';

export class LoginLimiter {
  constructor(
    private readonly limits: LoginLimits = DEFAULT_LOGIN_LIMITS,
    private readonly now: () => number = Date.now,
  ) {}

  /** Refused with the seconds to wait, or allowed with this try already counted as a failure (until `succeeded`). */
  begin(store: Store, account: string, address: string): Promise<LoginGate> {
    // An IPv6 client counts by its /64: it cannot rotate through its own addresses for a fresh count.
    return store.beginLogin(account, addressGroupOf(address), this.limits, new Date(this.now()));
  }

  /** A success clears its account's counts (from anywhere and from this address), never its address's earlier failures. */
  succeeded(store: Store, account: string, address: string, attempt: number): Promise<void> {
    return store.loginSucceeded(account, addressGroupOf(address), attempt);
  }
}
