// The HTTP fuzzing's property against a node on PostgreSQL holding the same rows as the SQLite file: its answers come
// from a mirror of the database, read per batch, and give the same guarantees.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fuzzOracle } from './helpers/fuzz-oracle.ts';
import { useFuzzServer, useFuzzWorld } from './helpers/fuzz-world.ts';

const RUNS_POSTGRES = 3_000;

const world = useFuzzWorld();
const pgServer = useFuzzServer(world, { postgres: true });
const oracle = fuzzOracle(world.keys);
const { property } = oracle;

describe('fuzzing the HTTP surface', () => {
  it(`${RUNS_POSTGRES} generated requests to a node on PostgreSQL with the same rows: the same guarantees`, async () => {
    const before = oracle.sent;
    await fc.assert(
      property(() => pgServer.port, false),
      { numRuns: RUNS_POSTGRES, endOnFailure: false },
    );
    expect(oracle.sent - before).toBeGreaterThanOrEqual(RUNS_POSTGRES);
  }, 120_000);
});
