// A target whose lock is shared by the publishers of one process: the first takes the real lock, the last releases it.
import type { Target } from './target.ts';

/**
 * For a process that holds a target's lock for its whole run (a watch) and also publishes on demand (its panel): the
 * real lock still keeps other processes out, and publishSnapshots keeps this process's publishes from interleaving.
 */
export function lockSharedInProcess(target: Target): Target {
  let holders = 0;
  let taken: Promise<() => Promise<void>> | undefined;
  return {
    label: target.label,
    recordKey: target.recordKey,
    get: (key) => target.get(key),
    put: (key, bytes, meta) => target.put(key, bytes, meta),
    close: () => target.close(),
    async lock(holder) {
      const held = (taken ??= target.lock(holder));
      holders++;
      let release: () => Promise<void>;
      try {
        release = await held;
      } catch (err) {
        if (--holders === 0) taken = undefined;
        throw err;
      }
      let released = false;
      return async () => {
        if (released) return;
        released = true;
        if (--holders > 0) return;
        taken = undefined;
        await release();
      };
    },
  };
}
