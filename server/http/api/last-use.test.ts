// Last use: slots written per request, one transaction per flush; the latest use of a key wins, a busy database loses nothing.
import Database from 'better-sqlite3';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { demoDb, tempDir } from '../../../test/helpers/fixture.ts';
import { createKey } from '../../store/keys.ts';
import type { Db } from '../../store/db.ts';
import { createLogger } from '../../logger.ts';
import { LastUse, useSlotOf } from './last-use.ts';

let cleanup: () => void;
let file: string;
let db: Db;
let lastUse: LastUse;
let keyId: string;

beforeEach(() => {
  let dir: string;
  ({ dir, cleanup } = tempDir());
  ({ file, db } = demoDb(dir));
  const facility = db.prepare('SELECT id FROM facilities LIMIT 1').pluck().get() as string;
  keyId = createKey(db, { facilityId: facility, prefix: 'svc' }).info.id;
  lastUse = new LastUse(db, 3_600_000); // flushed by the tests only
});
afterEach(() => {
  lastUse.stop();
  db.close();
  cleanup();
});

const stored = () => db.prepare('SELECT last_used_at FROM api_keys WHERE id = ?').pluck().get(keyId) as string | null;
const wallClock = (at: number) => new Date(performance.timeOrigin + at).toISOString();

it('writes nothing per request, then the latest use of each key on flush, even from two slots of one key', () => {
  const older = useSlotOf(keyId);
  const newer = useSlotOf(keyId); // as after a data change, which gives the key a new profile
  lastUse.touch(newer, 2_000);
  lastUse.touch(older, 1_000);
  lastUse.touch(older, 1_500); // a slot already queued is not queued twice
  expect(stored()).toBeNull();
  lastUse.flush();
  expect(stored()).toBe(wallClock(2_000));
  lastUse.flush(); // nothing used since: nothing written
  expect(stored()).toBe(wallClock(2_000));
  lastUse.touch(older, 3_000);
  lastUse.flush();
  expect(stored()).toBe(wallClock(3_000));
});

it('keeps the times when another process holds the write lock, and writes them on the next flush', () => {
  const other = new Database(file);
  try {
    other.exec('BEGIN IMMEDIATE');
    lastUse.touch(useSlotOf(keyId), 5_000);
    expect(() => lastUse.flush({ waitForLock: false })).not.toThrow();
    other.exec('ROLLBACK');
  } finally {
    other.close();
  }
  expect(stored()).toBeNull();
  lastUse.flush();
  expect(stored()).toBe(wallClock(5_000));
});

/** A LastUse whose log lines are kept, parsed. */
function loggedLastUse() {
  const lines: Record<string, unknown>[] = [];
  const { logger } = createLogger({ write: (l) => void lines.push(JSON.parse(l) as Record<string, unknown>) });
  return { lastUse: new LastUse(db, 3_600_000, undefined, logger), lines };
}

it('a write that fails (a full disk, a read-only file) is logged with counts, kept, and written on the next flush', () => {
  const { lastUse: logged, lines } = loggedLastUse();
  db.pragma('query_only = ON'); // every write now fails, as on a full disk
  logged.touch(useSlotOf(keyId), 7_000);
  expect(() => logged.flush({ waitForLock: false })).not.toThrow(); // the timer's flush
  expect(lines).toEqual([expect.objectContaining({ level: 'error', last_use_keys: 1, code: 'SQLITE_READONLY' })]);
  expect(JSON.stringify(lines)).not.toContain(keyId);
  db.pragma('query_only = OFF');
  logged.flush({ waitForLock: false });
  expect(stored()).toBe(wallClock(7_000));
  expect(lines).toHaveLength(1);
  logged.stop();
});

it('at stop, a write that fails is logged, not thrown', () => {
  const { lastUse: logged, lines } = loggedLastUse();
  db.pragma('query_only = ON');
  logged.touch(useSlotOf(keyId), 8_000);
  expect(() => logged.stop()).not.toThrow();
  expect(lines).toEqual([expect.objectContaining({ level: 'error', last_use_keys: 1, code: 'SQLITE_READONLY' })]);
  db.pragma('query_only = OFF');
  expect(stored()).toBeNull();
});
