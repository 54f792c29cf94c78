// Freshness: a commit by another connection (as by another process) drops the caches before the next check answers.
import Database from 'better-sqlite3';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { tempDir } from '../../test/helpers/fixture.ts';
import { openDb, type Db } from '../store/db.ts';
import { Freshness } from './freshness.ts';

let dir: string;
let cleanup: () => void;
let db: Db;
let other: Database.Database;
let drops: number;
let freshness: Freshness;

beforeEach(() => {
  ({ dir, cleanup } = tempDir());
  db = openDb(`${dir}/f.db`);
  other = new Database(`${dir}/f.db`);
  freshness = new Freshness(db);
  drops = 0;
  freshness.onChange(() => drops++);
});
afterEach(() => {
  other.close();
  db.close();
  cleanup();
});

const commitElsewhere = () =>
  other
    .prepare(
      "INSERT INTO facilities (id, name, currency, rental_page_url, imported_at) VALUES (?, 'F', 'PLN', NULL, '2026-01-01T00:00:00.000Z')",
    )
    .run(`f${Math.random()}`);

it('drops the caches on the first check after another connection commits, and only then', () => {
  freshness.check();
  expect(drops).toBe(0);
  commitElsewhere();
  freshness.check();
  expect(drops).toBe(1);
  freshness.check();
  expect(drops).toBe(1);
});

it('batch: checks once before the batch, sees a commit made before it, and checks again for the next batch', () => {
  commitElsewhere();
  let seenInBatch = -1;
  freshness.batch(() => {
    seenInBatch = drops;
    // A commit during a batch belongs to requests read after the batch began: the next batch answers them.
    commitElsewhere();
    freshness.check();
    freshness.check();
  });
  expect(seenInBatch).toBe(1);
  expect(drops).toBe(1);
  freshness.batch(() => undefined);
  expect(drops).toBe(2);
  // Outside a batch, every check runs again.
  commitElsewhere();
  freshness.check();
  expect(drops).toBe(3);
});

it('batch: a throwing batch does not leave the checks switched off', () => {
  expect(() =>
    freshness.batch(() => {
      throw new Error('boom');
    }),
  ).toThrow('boom');
  commitElsewhere();
  freshness.check();
  expect(drops).toBe(1);
});

it('reports data it cannot confirm as a state, checks false until confirmed again, and drops nothing meanwhile', () => {
  expect(freshness.check()).toBe(true);
  freshness.setUnavailable(true);
  commitElsewhere();
  expect([freshness.fresh, freshness.check()]).toEqual([false, false]);
  let ran = false;
  freshness.batch(() => (ran = !freshness.check()));
  expect(ran).toBe(true);
  expect(drops).toBe(0);
  freshness.setUnavailable(false);
  expect([freshness.fresh, freshness.check(), drops]).toEqual([true, true, 1]);
});

it('onChangeOf: calls its listener after a commit only when what it reads has changed', () => {
  const count = other.prepare('SELECT count(*) FROM facilities').pluck();
  let reads = 0;
  let calls = 0;
  freshness.onChangeOf(
    () => (reads++, String(count.get())),
    () => calls++,
  );
  other.exec('CREATE TABLE IF NOT EXISTS unrelated (n INTEGER); INSERT INTO unrelated VALUES (1)');
  freshness.check();
  expect([drops, reads, calls]).toEqual([1, 2, 0]);
  commitElsewhere();
  freshness.check();
  expect([drops, reads, calls]).toEqual([2, 3, 1]);
  freshness.check();
  expect([drops, reads, calls]).toEqual([2, 3, 1]);
});
