// Work queued per key: each runs after the work queued before it for that key has settled; other keys run in parallel.

/** A queue per key, for one process; a key's entry is dropped once its last work settles. */
export function takeTurns() {
  const tails = new Map<string, Promise<unknown>>();
  return async <T>(key: string, work: () => Promise<T>): Promise<T> => {
    const mine = (tails.get(key) ?? Promise.resolve()).then(work, work);
    const tail = mine.catch(() => undefined);
    tails.set(key, tail);
    try {
      return await mine;
    } finally {
      if (tails.get(key) === tail) tails.delete(key);
    }
  };
}
