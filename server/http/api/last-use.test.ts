// Last use: slots written per request, one transaction per flush; the latest use of a key wins, a busy database loses nothing.
import Database from 'better-sqlite3';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { demoDb, tempDir } from '../../../test/helpers/fixture.ts';
import { createKey } from '../../store/keys.ts';
import type { Db } from '../../store/db.ts';
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
