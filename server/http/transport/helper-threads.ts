// Work the event loop hands off (compression in libuv's pool) must not slow the answers it keeps giving on a busy core.
import { readdirSync } from 'node:fs';
import { setPriority } from 'node:os';
import { gzip } from 'node:zlib';

/**
 * Lowers this process's other threads (libuv's pool, V8's helpers) to `niceness` once the pool exists, so that the
 * kernel runs the event loop first when both want one core. Linux names threads in /proc; elsewhere nothing changes.
 */
export function yieldHelperThreads(niceness = 10): Promise<void> {
  // libuv starts its pool on first use: a tiny compression makes it exist before the threads are listed.
  return new Promise((resolve) =>
    gzip(Buffer.alloc(0), () => {
      for (const tid of threadIds()) {
        try {
          setPriority(tid, niceness);
        } catch {
          // Ended since it was listed, or not allowed: the others are still lowered.
        }
      }
      resolve();
    }),
  );
}

/** This process's threads but the event loop's; none where /proc is missing (not Linux). */
function threadIds(): number[] {
  try {
    return readdirSync('/proc/self/task')
      .map(Number)
      .filter((tid) => tid !== process.pid);
  } catch {
    return [];
  }
}
