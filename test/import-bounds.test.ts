// A file with a great many problems (10,000 empty listings, every number written as a string, a list far past its
// limit) is refused like any other, with a bounded list of problems: the CLI exits 1 and lists 20, the panel answers 422
// and lists the same 20; nothing is changed.
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EXIT_BAD_INPUT, MAX_LISTED_DETAILS } from '../cli/program.ts';
import { parseImport } from '../server/domain/import.ts';
import { ListingsError } from '../server/errors.ts';
import { MAX_KEPT_PROBLEMS } from '../server/schemas/import-check.ts';
import { cliInProcess, DEMO_DATA, dbBytes, demoJson, tempDir, writeJson } from './helpers/fixture.ts';
import { usePanel } from './helpers/panel.ts';
import { multipart } from './helpers/panel-accounts.ts';

/** The value with every number and boolean in it written as a string. */
function stringly(value: unknown): unknown {
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return value.map(stringly);
  if (typeof value === 'object' && value !== null)
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, stringly(v)]));
  return value;
}

/** The demo file whose first facility holds `listings` instead of its own. */
function fileWith(listings: unknown[]) {
  const data = demoJson();
  data.facilities[0].listings = listings;
  return data;
}

/** The demo's first listing: every field a listing may have. */
const demoListing = demoJson().facilities[0].listings[0];

const FILES: [string, () => unknown][] = [
  ['10,000 empty listings', () => fileWith(Array.from({ length: 10_000 }, () => ({})))],
  [
    '10,000 listings with numbers as strings',
    () => fileWith(Array.from({ length: 10_000 }, (_, i) => stringly({ ...demoListing, code: `S-${i}` }))),
  ],
  [
    '200,000 empty facilities',
    () => ({ facilities: [...demoJson().facilities, ...Array.from({ length: 200_000 }, () => ({}))] }),
  ],
];

let dir: string;
let cleanup: () => void;
beforeEach(() => ({ dir, cleanup } = tempDir()));
afterEach(() => cleanup());

describe('an import file with a great many problems', () => {
  it.each(FILES)('%s: the CLI exits 1, lists 20 problems and how many more, changes nothing', async (_, make) => {
    const dbFile = join(dir, 'listings.db');
    expect((await cliInProcess(dbFile, ['import', DEMO_DATA])).code).toBe(0);
    const before = dbBytes(dbFile);
    const r = await cliInProcess(dbFile, ['import', writeJson(dir, 'bad.json', make())]);
    expect(r.code).toBe(EXIT_BAD_INPUT);
    expect(r.stdout).toBe('');
    const [first, ...rest] = r.stderr.trimEnd().split('\n');
    expect(first).toMatch(/^error: .*bad\.json: .*problems, nothing was changed:$/);
    expect(rest).toHaveLength(MAX_LISTED_DETAILS + 1);
    for (const line of rest.slice(0, -1)) expect(line).toMatch(/^ {2}facilities\[\d+\]\S*: \S/);
    expect(rest.at(-1)).toMatch(/^ {2}\.\.\. and \d+ more$/);
    expect(dbBytes(dbFile).equals(before)).toBe(true);
  });

  it('keeps at most MAX_KEPT_PROBLEMS problems, and says the count is a floor when it stopped there', () => {
    try {
      parseImport(JSON.stringify(FILES[1]![1]()), 'bad.json');
      expect.unreachable('the file was accepted');
    } catch (err) {
      if (!(err instanceof ListingsError)) throw err;
      expect(err.code).toBe('invalid_import');
      expect(err.details).toHaveLength(MAX_KEPT_PROBLEMS);
      expect(err.message).toContain(`at least ${MAX_KEPT_PROBLEMS} problems`);
      expect(err.details[0]).toMatch(/^facilities\[0\]\.listings\[0\]\.active: /);
    }
  });
});

describe('the panel’s import page', () => {
  const panel = usePanel();

  it('answers 422 with the first 20 problems and how many more, and applies nothing', async () => {
    const s = await panel.client.session();
    const before = await panel.store.facilityData('wro-1');
    const bad = multipart(s.csrf, 'bad.json', JSON.stringify(FILES[1]![1]()));
    const refused = await panel.client.request('POST', '/import', {
      headers: { cookie: s.cookie, 'content-type': bad.type },
      body: bad.body,
    });
    expect(refused.status).toBe(422);
    const page = String(refused.body);
    expect(page.match(/<li><code>facilities\[/g)).toHaveLength(MAX_LISTED_DETAILS);
    expect(page).toMatch(/<li>\.\.\. and \d+ more<\/li>/);
    expect(page.length).toBeLessThan(20_000);
    expect(await panel.store.facilityData('wro-1')).toEqual(before);
  });
});
