// What the widget's browser tests are served (widget/test/server/) keeps to the public contract: every fixture, list
// body, problem and snapshot file parses with the server's own zod schemas, unchanged, so a contract change breaks them.
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { Detail, Jwks, ListResponse, Problem, Snapshot, SnapshotSignature, Summary } from '../shared/listing.ts';
import {
  absolutize,
  fixtures,
  listResponseOf,
  problemOf,
  summaryOf,
  TERMS_FACILITY,
} from '../widget/test/server/fixtures.js';
import { snapshotFile } from '../widget/test/server/snapshots.js';

const ORIGIN = 'http://127.0.0.1:8000';

/** Parses, then compares with the input: zod drops unknown keys, so a field the contract no longer has shows up too. */
function expectContract(schema: z.ZodType, value: unknown, where: string) {
  const parsed = schema.safeParse(value);
  expect(parsed.error?.issues ?? [], where).toEqual([]);
  expect(parsed.data, where).toEqual(value);
}

const named = Object.entries(fixtures);

describe('the fake API fixtures', () => {
  it('has fixtures, and ids unique within each', () => {
    expect(named.length).toBeGreaterThan(3);
    for (const [name, listings] of named) expect(new Set(listings.map((l) => l.id)).size, name).toBe(listings.length);
  });

  it.each(named)('%s: every listing is a Detail, as written and as served', (name, listings) => {
    for (const detail of listings) {
      expectContract(Detail, detail, `${name} ${detail.code}`);
      expectContract(Detail, absolutize(detail, ORIGIN), `${name} ${detail.code} served`);
      expectContract(Summary, summaryOf(absolutize(detail, ORIGIN)), `${name} ${detail.code} summary`);
    }
  });

  it.each(named)('%s: the list body is a ListResponse', (name, listings) => {
    expectContract(ListResponse, listResponseOf(listings.map((l) => absolutize(l, ORIGIN))), name);
  });

  it('terms: the list body with its facility of address, hours, amenities, fees and protection is a ListResponse', () => {
    const listings = fixtures.terms.map((l) => absolutize(l, ORIGIN));
    expectContract(ListResponse, listResponseOf(listings, TERMS_FACILITY), 'terms');
  });

  it.each([
    [401, 'missing_api_key'],
    [401, 'invalid_api_key'],
    [404, 'not_found'],
    [429, 'rate_limited'],
  ] as const)('answers %i %s with a Problem', (status, code) => {
    expectContract(Problem, problemOf(status, code), code);
  });
});

describe('the signed snapshot fixtures', () => {
  const json = (path: string): unknown => {
    const file = snapshotFile(ORIGIN, path);
    expect(file, path).toBeInstanceOf(Buffer);
    return JSON.parse((file as Buffer).toString('utf8'));
  };

  it('keys.json is a JWKS', () => {
    expectContract(Jwks, json('/snap/keys.json'), 'keys.json');
  });

  const variants = [
    'valid',
    'mid-publish',
    'old-layout',
    'tampered',
    'renumbered',
    'signature-down',
    'expired',
    'unknown-kid',
    'wrong-key',
    'kid-mismatch',
    'no-signature',
    'promotions',
  ];
  it.each(variants)('%s: listings.json is a Snapshot, its signature a SnapshotSignature', (variant) => {
    expectContract(Snapshot, json(`/snap/${variant}/listings.json`), variant);
    if (variant !== 'no-signature')
      expectContract(SnapshotSignature, json(`/snap/${variant}/listings.json.sig`), variant);
  });
});
