// A cap on the panel's password checks: each is an scrypt (32 MiB and tens of milliseconds of a core), so logins sent
// from many addresses at once must not take the CPU, memory and threads the API in the same process answers with.
import { decoyHash, verifyPassword } from '../domain/passwords.ts';

/**
 * Checks running at once. One: on a 2-core machine a check then holds at most one core, 32 MiB and one of libuv's four
 * threads, leaving the other core to the API's event loop and three threads to its compression and file reads. One at a
 * time still passes 10 to 20 logins a second, far more than a few operators make.
 */
export const PASSWORD_CHECKS_AT_ONCE = 1;

/** What a login turned away for want of a slot is told to wait, in seconds: a check is over well within it. */
export const BUSY_RETRY_AFTER_S = 1;

export type VerifyPassword = (password: string, stored: string) => Promise<boolean>;

export class PasswordChecks {
  private running = 0;

  constructor(
    private readonly atOnce = PASSWORD_CHECKS_AT_ONCE,
    private readonly verify: VerifyPassword = verifyPassword,
  ) {}

  /** One login's check: a slot taken when it may be, the password checked, the slot given back. */
  check(): PasswordCheck {
    let held = false;
    return {
      free: () => held || this.running < this.atOnce,
      reserve: () => {
        if (held || this.running >= this.atOnce) return held;
        this.running++;
        return (held = true);
      },
      // An unknown account is checked against a decoy: the same hash, the same cost, no answer of which accounts exist.
      matches: async (password, stored) =>
        stored === undefined
          ? this.verify(password, await decoyHash()).then(() => false)
          : this.verify(password, stored),
      release: () => {
        if (held) this.running--;
        held = false;
      },
    };
  }
}

export interface PasswordCheck {
  /** Whether `reserve` would hold a slot now; takes nothing. */
  free(): boolean;
  /** Takes a slot when one is free; true when this check holds one. */
  reserve(): boolean;
  /** Whether `password` is the one `stored` hashes (never for an account that does not exist, `undefined`). */
  matches(password: string, stored: string | undefined): Promise<boolean>;
  /** Gives the slot back, if it holds one. */
  release(): void;
}
