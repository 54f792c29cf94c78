// Unique visitors a day: one pumped ref keeps to its share, and one address changing its User-Agent is not a crowd.
import { describe, expect, it } from 'vitest';
import type { ClickDelta } from '../../store/referrals.ts';
import { demoDb, tempDir } from '../../../test/helpers/fixture.ts';
import { createLogger } from '../../logger.ts';
import { recordClicks } from '../../store/referrals.ts';
import { ClickCounter, MAX_VISITORS_PER_ADDRESS } from './click-counter.ts';

const NOW = Date.parse('2026-11-28T10:00:00Z');

/** A counter with a cap of `max` visitors a day, and the visitors it wrote per ref. */
function counter(max: number) {
  const written: ClickDelta[] = [];
  const clicks = new ClickCounter(
    (d) => void written.push(...d),
    () => NOW,
    3_600_000,
    max,
  );
  const visitorsOf = (ref: string) => {
    clicks.flush();
    return written.filter((d) => d.ref === ref).reduce((n, d) => n + d.unique_visitors, 0);
  };
  return { clicks, visitorsOf, written };
}

describe('unique visitors', () => {
  it('give each partner at most a tenth of the day: one pumped ref leaves the others theirs', () => {
    const { clicks, visitorsOf } = counter(100);
    for (let i = 0; i < 500; i++) clicks.count('wro-1', 'M-07', 'pump', `198.51.100.${i % 250}`, `UA ${i}`);
    for (let i = 0; i < 5; i++) clicks.count('wro-1', 'M-07', 'honest', `203.0.113.${i}`, 'Mozilla/5.0');
    expect(visitorsOf('pump')).toBe(10);
    expect(visitorsOf('honest')).toBe(5);
    clicks.stop();
  });

  it('count an address (an IPv6 /64) at most a few times per listing and ref, however many User-Agents it sends', () => {
    const { clicks, visitorsOf, written } = counter(100_000);
    for (let i = 0; i < 20; i++) clicks.count('wro-1', 'M-07', 'odra', `2001:db8:1:2::${i + 1}`, `UA ${i}`);
    clicks.count('wro-1', 'M-07', 'odra', '2001:db8:1:3::1', 'UA 0');
    clicks.count('wro-1', 'L-12', 'odra', '2001:db8:1:2::1', 'UA 0');
    expect(visitorsOf('odra')).toBe(MAX_VISITORS_PER_ADDRESS + 2);
    expect(written.reduce((n, d) => n + d.clicks, 0)).toBe(22);
    clicks.stop();
  });
});

describe('a write that fails', () => {
  it('(a full disk, a read-only file) is logged with counts and kept for the next write, never thrown', () => {
    const { dir, cleanup } = tempDir();
    const { db } = demoDb(dir);
    try {
      const lines: Record<string, unknown>[] = [];
      const { logger } = createLogger({ write: (l) => void lines.push(JSON.parse(l) as Record<string, unknown>) });
      const clicks = new ClickCounter(
        (d, o) => recordClicks(db, d, o),
        () => NOW,
        3_600_000,
        100,
        logger,
      );
      const facility = db.prepare('SELECT id FROM facilities LIMIT 1').pluck().get() as string;
      clicks.count(facility, 'M-07', 'odra', '203.0.113.1', 'UA');
      db.pragma('query_only = ON'); // every write now fails, as on a full disk
      expect(() => clicks.flush({ waitForLock: false })).not.toThrow(); // the timer's flush
      expect(() => clicks.stop()).not.toThrow();
      expect(lines).toEqual([
        expect.objectContaining({ level: 'error', click_count_rows: 1, code: 'SQLITE_READONLY' }),
        expect.objectContaining({ level: 'error', click_count_rows: 1, code: 'SQLITE_READONLY' }),
      ]);
      db.pragma('query_only = OFF');
      clicks.flush();
      expect(db.prepare('SELECT SUM(clicks) FROM referral_clicks').pluck().get()).toBe(1);
    } finally {
      db.close();
      cleanup();
    }
  });
});
