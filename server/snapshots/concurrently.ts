// Runs tasks a few at a time, stopping on the first failure or on request.

/** Runs `task` over `items`, `limit` at a time; stops starting new ones on the first failure or once `signal` aborts. */
export async function eachConcurrently<T>(
  items: readonly T[],
  limit: number,
  task: (item: T) => Promise<void>,
  signal?: AbortSignal,
): Promise<boolean> {
  let next = 0;
  let failed = false;
  const worker = async () => {
    while (next < items.length && !failed && !signal?.aborted) await task(items[next++]!);
  };
  const workers = Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, () =>
    worker().catch((err: unknown) => {
      failed = true; // the others finish the facility in hand, then stop
      throw err;
    }),
  );
  const failure = (await Promise.allSettled(workers)).find((s) => s.status === 'rejected');
  if (failure) throw failure.reason;
  return next < items.length;
}
