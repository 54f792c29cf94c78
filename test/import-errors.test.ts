// An invalid import file: every problem listed (up to 20, then a count), invalid JSON located by line and column, the
// database untouched; and a misspelt option reported as unknown, with a suggestion, as a usage error.
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { EXIT_BAD_INPUT, EXIT_USAGE, MAX_LISTED_DETAILS } from '../cli/program.ts';
import { parseImport } from '../server/domain/import.ts';
import { ListingsError } from '../server/errors.ts';
import { cli, cliInProcess, DEMO_DATA, dbBytes, demoJson, dbPathEachTest, writeJson } from './helpers/fixture.ts';

let dir: string;
let dbFile: string;
dbPathEachTest((t) => ({ dir, file: dbFile } = t));

const run = (args: string[]) => cliInProcess(dbFile, args);

/** The problems parseImport finds in a file, or [] when it is valid. */
function problemsOf(data: unknown): readonly string[] {
  try {
    parseImport(JSON.stringify(data), 'test.json');
    return [];
  } catch (err) {
    if (!(err instanceof ListingsError)) throw err;
    expect(err.code).toBe('invalid_import');
    return err.details;
  }
}

/** The demo file with a negative area in every listing and more free than total units in the first `overfull`. */
function fileWithProblems(overfull: number) {
  const data = demoJson();
  const listings = data.facilities.flatMap(
    (f) => f.listings as { area_m2: number; free_units: number; total_units: number }[],
  );
  listings.forEach((l) => (l.area_m2 = -1));
  listings.slice(0, overfull).forEach((l) => (l.free_units = l.total_units + 1));
  return { data, count: listings.length + overfull };
}

describe('every problem of an invalid file', () => {
  it('lists 20 with their paths, then how many more; exit 1; the database bytes unchanged', async () => {
    expect((await run(['import', DEMO_DATA])).code).toBe(0);
    const before = dbBytes(dbFile);
    const { data, count } = fileWithProblems(25 - demoJson().facilities.flatMap((f) => f.listings).length);
    expect(count).toBe(25);

    const r = await run(['import', writeJson(dir, 'bad.json', data)]);
    expect(r.code).toBe(EXIT_BAD_INPUT);
    expect(r.stdout).toBe('');
    const [first, ...rest] = r.stderr.trimEnd().split('\n');
    expect(first).toMatch(/^error: .*bad\.json: 25 problems/);
    expect(rest).toHaveLength(MAX_LISTED_DETAILS + 1);
    for (const line of rest.slice(0, MAX_LISTED_DETAILS))
      expect(line).toMatch(/^ {2}facilities\[\d+\]\.listings\[\d+\]\.(area_m2|free_units): \S/);
    expect(rest.at(-1)).toBe('  ... and 5 more');
    expect(dbBytes(dbFile).equals(before)).toBe(true);
  });

  it('the real binary too, and --json leaves standard output empty', () => {
    const { data } = fileWithProblems(7);
    const r = cli(['import', writeJson(dir, 'bad.json', data), '--json'], { env: { LISTINGS_DB: dbFile } });
    expect(r.status).toBe(EXIT_BAD_INPUT);
    expect(r.stdout).toBe('');
    expect(r.stderr.trimEnd().split('\n')).toHaveLength(1 + MAX_LISTED_DETAILS + 1);
    expect(r.stderr).toContain('... and 5 more');
    expect(existsSync(dbFile)).toBe(false); // validated before the database is even opened
  });

  it('collects the cross-field rules with the field rules, not only the first problem', () => {
    const data = demoJson();
    const [a, b] = data.facilities[0].listings;
    a.title = 5; // a field problem in the same listing as the free/total one
    a.free_units = a.total_units + 3;
    b.code = a.code; // a duplicate code in a facility whose listings have other problems
    b.price_gross = -1;
    data.facilities[2].pricing_rules = [
      { min_occupancy: 0.5, adjust_pct: 5 },
      { min_occupancy: 0.5, adjust_pct: 'x' },
    ];
    data.facilities[3].id = data.facilities[1].id; // a duplicate facility id in a file with other problems
    data.facilities[3].currency = 'XXXX';

    const problems = problemsOf(data);
    expect(problems).toHaveLength(8);
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^facilities\[0\]\.listings\[0\]\.title: /),
        `facilities[0].listings[0].free_units: must not exceed total_units (${a.total_units})`,
        expect.stringMatching(/^facilities\[0\]\.listings\[1\]\.price_gross: /),
        `facilities[0].listings[1].code: duplicate code "${a.code}" (also at listings[0])`,
        expect.stringMatching(/^facilities\[2\]\.pricing_rules\[1\]\.adjust_pct: /),
        'facilities[2].pricing_rules[1].min_occupancy: duplicate tier',
        expect.stringMatching(/^facilities\[3\]\.currency: /),
        `facilities[3].id: duplicate facility id "${data.facilities[1].id}"`,
      ]),
    );
  });

  it('does not stumble on values of the wrong type where a cross-field rule looks', () => {
    expect(
      problemsOf({
        facilities: [
          null,
          { id: 7, listings: 'none' },
          { id: 'a', listings: [null, { code: 1, free_units: '3', total_units: 1 }] },
        ],
      }).length,
    ).toBeGreaterThan(0);
    expect(problemsOf({ facilities: 'none' })).toEqual([expect.stringMatching(/^facilities: /)]);
    expect(problemsOf(demoJson())).toEqual([]);
  });

  it('names a required field left out as missing, and a value of the wrong type as that', () => {
    const data = demoJson();
    delete data.facilities[0].listings[0].title;
    data.facilities[0].listings[1].free_units = 'three';
    expect(problemsOf(data)).toEqual([
      'facilities[0].listings[0].title: missing: a string is required',
      expect.stringMatching(/^facilities\[0\]\.listings\[1\]\.free_units: .*expected number, received string$/),
    ]);
  });

  it('names one problem as one', async () => {
    const data = demoJson();
    data.facilities[1].listings[0].free_units = -1;
    const r = await run(['import', writeJson(dir, 'bad.json', data)]);
    expect(r.code).toBe(EXIT_BAD_INPUT);
    expect(r.stderr.trimEnd().split('\n')).toEqual([
      expect.stringMatching(/bad\.json: 1 problem\b/),
      expect.stringMatching(/^ {2}facilities\[1\]\.listings\[0\]\.free_units: /),
    ]);
  });
});

describe('a file that is not valid JSON', () => {
  /**
   * The demo file as an editor shows it, with `bad` in place of the first `find`, and the line and column of
   * `bad[stop]`, where the parser must give up.
   */
  function brokenDemo(find: string, bad: string, stop: number) {
    const text = JSON.stringify(demoJson(), null, 2);
    const at = text.indexOf(find);
    expect(at).toBeGreaterThan(0);
    const broken = text.slice(0, at) + bad + text.slice(at + find.length);
    const file = join(dir, 'broken.json');
    writeFileSync(file, broken);
    const before = broken.slice(0, at + stop).split('\n');
    return { file, line: before.length, column: before.at(-1)!.length + 1 };
  }

  it.each([
    ['a token where a value belongs (V8 gives no position)', '"dynamic_pricing": ', '"dynamic_pricing": }', 19],
    ['a bare word (V8 gives no position)', '"description": "', '"description": ', 15],
    ['a tab inside a string (V8 gives the position)', '"description": "', '"description": "\t', 16],
  ])('names the line and column: %s', async (_name, find, bad, stop) => {
    const { file, line, column } = brokenDemo(find, bad, stop);
    expect(line).toBeGreaterThan(1);
    const r = await run(['import', file]);
    expect(r.code).toBe(EXIT_BAD_INPUT);
    expect(r.stdout).toBe('');
    expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
    const m = /broken\.json: invalid JSON at line (\d+), column (\d+): (.+)$/.exec(r.stderr.trimEnd());
    expect(m).not.toBeNull();
    expect({ line: Number(m![1]), column: Number(m![2]) }).toEqual({ line, column });
    expect(m![3]).not.toMatch(/position|is not valid JSON/); // no offset, no copy of the file: the line and column say where
    expect(existsSync(dbFile)).toBe(false);
  });

  it('an empty file is at line 1, column 1', async () => {
    writeFileSync(join(dir, 'empty.json'), '');
    const r = await run(['import', join(dir, 'empty.json')]);
    expect(r.code).toBe(EXIT_BAD_INPUT);
    expect(r.stderr).toMatch(/empty\.json: invalid JSON at line 1, column 1: /);
  });

  it('a byte order mark, as some editors save it, is not an error', async () => {
    const file = join(dir, 'bom.json');
    writeFileSync(file, `\uFEFF${JSON.stringify(demoJson())}`);
    expect((await run(['import', file])).code).toBe(0);
  });
});

describe('a misspelt option', () => {
  beforeEach(async () => {
    expect((await run(['import', DEMO_DATA])).code).toBe(0);
  });

  it('is an unknown option of import, exit 2, nothing imported', async () => {
    const before = dbBytes(dbFile);
    const r = await run(['import', DEMO_DATA, '--facilty', 'a']);
    expect(r.code).toBe(EXIT_USAGE);
    expect(r.stderr).toMatch(/^error: unknown option '--facilty'/);
    expect(dbBytes(dbFile).equals(before)).toBe(true);
  });

  it.each([
    ['keys create', ['keys', 'create', '--facilty', 'wro-1']],
    ['keys list', ['keys', 'list', '--facilty', 'wro-1']],
  ])('%s: reported before the missing required option, with a suggestion, exit 2, no key made', async (_name, args) => {
    const r = await run(args);
    expect(r.code).toBe(EXIT_USAGE);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^error: unknown option '--facilty'\n\(Did you mean --facility\?\)/);
    expect(JSON.parse((await run(['keys', 'list', '--json'])).stdout)).toEqual([]);
  });

  it('a required option that is really missing is still a usage error', async () => {
    const r = await run(['keys', 'create', '--label', 'x']);
    expect(r.code).toBe(EXIT_USAGE);
    expect(r.stderr).toMatch(/^error: required option '--facility <id>' not specified/);
    expect(JSON.parse((await run(['keys', 'list', '--json'])).stdout)).toEqual([]);
  });

  it('the real binary exits 2 with the suggestion', () => {
    const r = cli(['keys', 'create', '--facilty', 'wro-1'], { env: { LISTINGS_DB: dbFile } });
    expect(r.status).toBe(EXIT_USAGE);
    expect(r.stderr).toContain('(Did you mean --facility?)');
  });
});
