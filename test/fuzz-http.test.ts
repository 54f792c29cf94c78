// Property-based fuzzing of the whole HTTP surface (OWASP API1/API2/API4) over raw sockets: generated methods, paths,
// encodings, headers, keys and query strings. Never a 5xx, never another facility's listing, every error problem+json;
// on a SQLite file, with limits raised and with the default ones.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fuzzOracle } from './helpers/fuzz-oracle.ts';
import { useFuzzServer, useFuzzWorld } from './helpers/fuzz-world.ts';

/** Requests per run: the issue asks for at least 10,000; most go to a server with limits raised, some to default limits. */
const RUNS_HIGH_LIMITS = 9_000;
const RUNS_DEFAULT_LIMITS = 1_500;

const world = useFuzzWorld();
const fuzzServer = useFuzzServer(world);
const defaultServer = useFuzzServer(world, { defaultLimits: true });
const oracle = fuzzOracle(world.keys);
const { property } = oracle;

describe('fuzzing the HTTP surface', () => {
  it(`${RUNS_HIGH_LIMITS + RUNS_DEFAULT_LIMITS} generated requests: no 5xx, no cross-facility data, every error problem+json`, async () => {
    const started = performance.now();
    // Limits raised: the handlers themselves are exercised, not just the 429.
    await fc.assert(
      property(() => fuzzServer.port, false),
      { numRuns: RUNS_HIGH_LIMITS, endOnFailure: false },
    );
    // Default limits: 401s quickly turn into 429s per address; those must be just as well-formed.
    await fc.assert(
      property(() => defaultServer.port, true),
      { numRuns: RUNS_DEFAULT_LIMITS },
    );
    const seconds = (performance.now() - started) / 1000;
    expect(oracle.sent).toBeGreaterThanOrEqual(10_000);
    if (process.env.LISTINGS_TEST_FIGURES)
      console.error(
        `fuzz: ${oracle.sent} requests in ${seconds.toFixed(1)} s (${Math.round(oracle.sent / seconds)}/s)`,
      );
  }, 180_000);
});
