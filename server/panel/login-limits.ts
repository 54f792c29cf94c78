// The panel's login limits: the rule and its clock here, the counts in the store, so every panel and a restart share them.
import { addressGroupOf } from '../domain/address-group.ts';
import {
  ADMIT_ALL,
  DEFAULT_LOGIN_LIMITS,
  type LoginAdmit,
  type LoginGate,
  type LoginLimits,
  type LoginTry,
} from '../domain/login-limits.ts';
import type { Store } from '../store/store.ts';

export class LoginLimiter {
  constructor(
    private readonly limits: LoginLimits = DEFAULT_LOGIN_LIMITS,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Refused with the seconds to wait, turned away by `admit` (not counted), or allowed with this try already counted as
   * a failure (until `succeeded`): on its device cookie's count while that has failures to spare, else on the account's.
   */
  begin(store: Store, login: LoginTry, admit: LoginAdmit = ADMIT_ALL): Promise<LoginGate> {
    return store.beginLogin(grouped(login), this.limits, new Date(this.now()), admit);
  }

  /** A success clears this try's count, and the account's unless it counted on a device cookie; never an address's. */
  succeeded(store: Store, login: LoginTry, gate: { attempt: number; byDevice: boolean }): Promise<void> {
    return store.loginSucceeded(grouped(login), gate.attempt, gate.byDevice);
  }
}

// An IPv6 client counts by its /64: it cannot rotate through its own addresses for a fresh count.
const grouped = (login: LoginTry): LoginTry => ({ ...login, address: addressGroupOf(login.address) });
