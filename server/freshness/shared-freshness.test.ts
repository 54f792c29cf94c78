// The reads of the change counter on PostgreSQL, scheduled: an idle node reads at once, a batch is only ever released
// by a read that began after it arrived, and under load one read serves many batches. The database side is a stand-in
// whose reads the test ends by hand (test/several-nodes*.test.ts run the real one).
import { expect, it } from 'vitest';
import { until } from '../../test/helpers/wait.ts';
import type { Mirror } from '../store/pg/mirror.ts';
import type { Freshness } from './freshness.ts';
import { MAX_WAIT_MS, REQUESTS_PER_READ, SharedFreshness } from './shared-freshness.ts';

function setup() {
  const reads: { began: number; at: number; end: () => void }[] = [];
  let clock = 0;
  const mirror = {
    sync: () =>
      new Promise<boolean>((resolve) =>
        reads.push({ began: ++clock, at: performance.now(), end: () => resolve(false) }),
      ),
  } as unknown as Mirror;
  const freshness = { fresh: true, invalidate() {}, setUnavailable() {} } as unknown as Freshness;
  const shared = new SharedFreshness(mirror, freshness);
  /** A batch's arrival on the same clock as the reads, and when its promise resolved. */
  const batch = (requests = 1) => {
    const b = { arrived: ++clock, released: false };
    void shared.beforeBatch(requests).then(() => (b.released = true));
    return b;
  };
  return { reads, shared, batch };
}

it('reads at once on an idle node, and a batch waits for a read that began after it arrived', async () => {
  const { reads, batch } = setup();
  const first = batch();
  expect(reads).toHaveLength(1);
  const second = batch(REQUESTS_PER_READ);
  expect(reads).toHaveLength(1);
  reads[0]!.end();
  await until('the first batch to be released', () => first.released);
  expect(second.released).toBe(false);
  await until('the second read', () => reads.length === 2);
  expect(reads[1]!.began).toBeGreaterThan(second.arrived);
  reads[1]!.end();
  await until('the second batch to be released', () => second.released);
});

it('under load, one read serves every batch that came while the last one ran', async () => {
  const { reads, shared, batch } = setup();
  batch();
  const during = Array.from({ length: 40 }, () => batch());
  reads[0]!.end();
  // Enough requests waited: the next read begins as the last one ends, with no timer in between.
  await new Promise((r) => setImmediate(r));
  expect(reads).toHaveLength(2);
  expect(during.every((b) => b.released)).toBe(false);
  reads[1]!.end();
  await until('every waiting batch to be released', () => during.every((b) => b.released));
  expect(shared.reads).toBe(2);
});

it('a few requests soon after a read wait for the timer, not for more requests', async () => {
  const { reads, batch } = setup();
  const first = batch();
  reads[0]!.end();
  await until('the first batch to be released', () => first.released);
  const late = batch();
  await until('the second read', () => reads.length === 2);
  // Timers round to whole milliseconds: a tenth of the wait is allowed for that.
  expect(reads[1]!.at - reads[0]!.at).toBeGreaterThanOrEqual(MAX_WAIT_MS * 0.9);
  reads[1]!.end();
  await until('the late batch to be released', () => late.released);
});

it('a NOTIFY reads at once when no read is running', () => {
  const { reads, shared } = setup();
  shared.wake();
  expect(reads).toHaveLength(1);
});
