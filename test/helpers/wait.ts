// Waiting for a condition that no event announces: poll it until it holds, and fail with its name at a deadline.

export interface UntilOptions {
  /** Give up after this long; generous, since a busy machine may be slow, and a condition that holds returns at once. */
  timeoutMs?: number;
  /** Pause between probes. */
  everyMs?: number;
}

/**
 * Resolves with the probe's first value that is not undefined, null or false; rejects with `what` at the deadline.
 * A probe that throws ends the wait with its error (e.g. "the process exited before it did that").
 */
export async function until<T>(
  what: string,
  probe: () => T | undefined | null | false | Promise<T | undefined | null | false>,
  opts: UntilOptions = {},
): Promise<T> {
  const { timeoutMs = 30_000, everyMs = 20 } = opts;
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== null && value !== false) return value;
    if (performance.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
