// The S3 publish lock's lease: renewed every third of it, and, once renewing has failed long enough for the lease to
// pass to another publisher, lapsed, so that the holder writes nothing more. Fake timers drive the clock.
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { leaseLock, type LockStore } from './s3-lock.ts';

beforeEach(() => vi.useFakeTimers({ now: Date.parse('2026-11-29T12:00:00Z') }));
afterEach(() => vi.useRealTimers());

/** Lock objects in memory; `down` makes every write fail, as an unreachable store would. */
function memoryStore() {
  const objects = new Map<string, string>();
  const store: LockStore & { down: boolean; writes: number } = {
    label: 's3://bucket',
    down: false,
    writes: 0,
    put: async (key, body) => {
      if (store.down) throw new Error('unreachable');
      store.writes++;
      objects.set(key, body);
    },
    get: async (key) => (objects.has(key) ? Buffer.from(objects.get(key)!) : undefined),
    remove: async (key) => void objects.delete(key),
    list: async (prefix) => [...objects.keys()].filter((k) => k.startsWith(prefix)),
  };
  return store;
}

it('holds while its renewals succeed', async () => {
  const store = memoryStore();
  const lease = await leaseLock(store, 60_000);
  await vi.advanceTimersByTimeAsync(5 * 60_000);
  expect(store.writes).toBe(1 + 15);
  expect(lease.lapsed()).toBe(false);
  await lease.release();
  expect(await store.list('')).toEqual([]);
});

it('lapses a sixth of a lease before the last renewal written runs out, and stays lost: no renewal brings it back', async () => {
  const store = memoryStore();
  const lease = await leaseLock(store, 60_000);
  await vi.advanceTimersByTimeAsync(20_000); // renewed at 20 s: holds until 80 s
  store.down = true;
  await vi.advanceTimersByTimeAsync(49_000); // 69 s: the renewals at 40 s and 60 s failed
  expect(lease.lapsed()).toBe(false);
  await vi.advanceTimersByTimeAsync(1_000); // 70 s: 80 s less a sixth of the lease
  expect(lease.lapsed()).toBe(true);
  store.down = false;
  const writes = store.writes;
  await vi.advanceTimersByTimeAsync(60_000); // another publisher may have taken it: this one writes its lock no more
  expect(lease.lapsed()).toBe(true);
  expect(store.writes).toBe(writes);
  await lease.release();
});

it("tells a --watch publisher's lock apart: it is to be stopped, not waited for", async () => {
  const store = memoryStore();
  const watch = await leaseLock(store, 60_000, { watch: true });
  await expect(leaseLock(store, 60_000)).rejects.toThrow(
    /^s3:\/\/bucket is held by a --watch publisher \(process \d+ on /,
  );
  await watch.release();
  const once = await leaseLock(store, 60_000);
  await expect(leaseLock(store, 60_000)).rejects.toThrow(/^s3:\/\/bucket is being published by process \d+ on /);
  await once.release();
});
