// The shortened listing docs/api.md shows is the demo's wro-1 M-07 as the API answers it: every field the example
// gives has the demo's value, arrays have the demo's length, and only objects may leave fields out.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { issueKey, REPO } from './helpers/fixture.ts';
import { call, json } from './helpers/http.ts';
import { useDemoHandler } from './helpers/setup.ts';

/** An instant the demo's promotions are active at, so the example holds whenever the test runs. */
const AT = Date.parse('2026-11-28T12:00:00Z');

let key: string;
const demo = useDemoHandler({ prepare: (db) => void (key = issueKey(db, 'wro-1').key), handler: { clock: () => AT } });

/** The ```json block of docs/api.md that shows a listing of the list. */
function exampleListing(): Record<string, unknown> {
  const text = readFileSync(join(REPO, 'docs', 'api.md'), 'utf8');
  const blocks = [...text.matchAll(/^```json\n([\s\S]*?)^```/gm)].map(
    (m) => JSON.parse(m[1]!) as Record<string, unknown>,
  );
  const listings = blocks.filter((b) => typeof b.id === 'string' && 'move_in' in b);
  expect(listings).toHaveLength(1);
  return listings[0]!;
}

/** The example as the answer would read if it kept only the example's fields: `"...": "..."` marks a cut. */
function shortened(answer: unknown, example: unknown): unknown {
  if (Array.isArray(example) && Array.isArray(answer))
    return answer.map((item, i) => shortened(item, example[Math.min(i, example.length - 1)]));
  if (example === null || typeof example !== 'object' || answer === null || typeof answer !== 'object') return answer;
  const kept = Object.keys(example).filter((name) => name !== '...');
  const cut = '...' in example ? { '...': '...' } : {};
  return {
    ...Object.fromEntries(
      kept.map((name) => [
        name,
        shortened((answer as Record<string, unknown>)[name], (example as Record<string, unknown>)[name]),
      ]),
    ),
    ...cut,
  };
}

describe("docs/api.md's example listing", () => {
  let answer: { code: string; id: string }[];

  beforeAll(async () => {
    answer = json(await call(demo.handler, '/external/listings', { key })).listings;
  });

  it("is the demo's listing of its id, as the list answers it", () => {
    const example = exampleListing();
    const listing = answer.find((l) => l.id === example.id);
    expect(listing?.code).toBe(example.code);
    expect(shortened(listing, example)).toEqual(example);
  });
});
