// Import limits that keep a facility's answers bounded (URL templates, text lengths, photos per facility, file size)
// and text that must be valid (UTF-8 bytes, no lone surrogates): each refused with its place, the database untouched.
import { spawnSync } from 'node:child_process';
import { readFileSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EXIT_BAD_INPUT, runCli } from '../cli/program.ts';
import { longFieldsFacility } from './helpers/long-fields.ts';
import { parseImport } from '../server/domain/import.ts';
import { openDb } from '../server/store/db.ts';
import { applyImport } from '../server/store/facilities.ts';
import { listingJson } from './helpers/data.ts';
import { BIN, bufferIo, DEMO_DATA, dbBytes, demoJson, REPO, issueKey, tempDir, writeJson } from './helpers/fixture.ts';
import { call, json } from './helpers/http.ts';
import { handlerOver } from './helpers/inject.ts';

const MB = 1024 * 1024;

let dir: string;
let cleanup: () => void;
let dbFile: string;
let before: Buffer;
beforeEach(async () => {
  ({ dir, cleanup } = tempDir());
  dbFile = join(dir, 'listings.db');
  expect(await runCli(['import', DEMO_DATA], bufferIo({ LISTINGS_DB: dbFile }))).toBe(0);
  before = dbBytes(dbFile);
});
afterEach(() => cleanup());

/**
 * `listings import` in process, expected to refuse: exit 1, nothing on standard output, the database bytes as they
 * were. Returns the lines of standard error. `stdin` replaces standard input's bytes.
 */
async function refusal(args: string[], stdin?: Uint8Array): Promise<string[]> {
  const io = bufferIo({ LISTINGS_DB: dbFile });
  if (stdin) io.readStdin = async () => stdin;
  expect(await runCli(args, io)).toBe(EXIT_BAD_INPUT);
  expect(io.stdout()).toBe('');
  expect(dbBytes(dbFile).equals(before)).toBe(true);
  return io.stderr().trimEnd().split('\n');
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Spoil = (d: any) => void;

/** A URL of exactly `length` characters that starts with `head`. */
const urlOf = (head: string, length: number) => head + 'a'.repeat(length - head.length);

/** `count` listings of 100 photos each. */
const photoHeavyListings = (count: number) =>
  Array.from({ length: count }, (_, i) => ({
    ...listingJson(`P-${i}`, `Unit ${i}`, i),
    photos: Array.from({ length: 100 }, (_, p) => ({ url: `https://img.example/${i}/${p}.jpg`, caption: `${p}` })),
  }));

describe('limits that bound a facility’s answers', () => {
  const LIMITS: [string, string, RegExp, Spoil][] = [
    [
      'a rental page template over 2048 characters',
      'facilities[0].rental_page_url',
      /2048/,
      (d) => (d.facilities[0].rental_page_url = urlOf('https://rent.example.com/{facility}/{code}?x=', 2049)),
    ],
    [
      'a booking template over 2048 characters',
      'facilities[1].booking_url',
      /2048/,
      (d) => (d.facilities[1].booking_url = urlOf('https://booking.example.com/{code}?x=', 2049)),
    ],
    [
      '{code} three times in a rental page template',
      'facilities[0].rental_page_url',
      /\{code\}.*\b2\b/,
      (d) => (d.facilities[0].rental_page_url = 'https://rent.example.com/{code}/{code}?c={code}'),
    ],
    [
      '{facility} three times in a booking template',
      'facilities[1].booking_url',
      /\{facility\}.*\b2\b/,
      (d) => (d.facilities[1].booking_url = 'https://b.example.com/{facility}/{facility}/{facility}/{code}'),
    ],
    [
      'a price period over 32 characters',
      'facilities[2].listings[0].price_period',
      /32/,
      (d) => (d.facilities[2].listings[0].price_period = `P${'1'.repeat(31)}D`),
    ],
    [
      'a notice period over 32 characters',
      'facilities[2].listings[1].notice_period',
      /32/,
      (d) => (d.facilities[2].listings[1].notice_period = `P${'1'.repeat(31)}D`),
    ],
    [
      'more than 30,000 photos in one facility',
      'facilities[3].listings',
      /30,?000 photos/,
      (d) => (d.facilities[3].listings = photoHeavyListings(301)),
    ],
  ];

  it.each(LIMITS)(
    'refuses %s: exit 1, one line naming %s and the limit, nothing changed',
    async (_n, path, rule, spoil) => {
      const data = demoJson();
      data.facilities[0].listings[0].price_gross += 1000; // a valid change that must not land either
      spoil(data);
      const lines = await refusal(['import', writeJson(dir, 'big.json', data)]);
      expect(lines).toEqual([expect.stringMatching(/big\.json: 1 problem\b/), expect.stringContaining(`  ${path}: `)]);
      expect(lines[1]!.slice(`  ${path}: `.length)).toMatch(rule);
    },
  );

  it('accepts everything at the limits', () => {
    const data = demoJson();
    const twoOfEach = 'https://rent.example.com/{facility}/{code}?f={facility}&c={code}&x=';
    data.facilities[0].rental_page_url = urlOf(twoOfEach, 2048);
    data.facilities[1].booking_url = urlOf(twoOfEach, 2048);
    data.facilities[2].listings[0].price_period = `P${'1'.repeat(30)}D`;
    data.facilities[3].listings = photoHeavyListings(300);
    expect(data.facilities[2].listings[0].price_period).toHaveLength(32);
    expect(() => parseImport(JSON.stringify(data), 'limits.json')).not.toThrow();
  });

  it('accepts the largest facility the bench serves: 10,000 listings with long descriptions and 2 long photo URLs each', () => {
    const file = { facilities: [longFieldsFacility('large-1', 10_000).json] };
    expect(parseImport(JSON.stringify(file), 'bench.json').facilities[0]!.listings).toHaveLength(10_000);
  });

  it('refuses a file over 256 MB before reading it, and standard input past 256 MB', async () => {
    const file = join(dir, 'huge.json');
    writeFileSync(file, '');
    truncateSync(file, 256 * MB + 1); // sparse: no disk, no time
    const [line] = await refusal(['import', file]);
    expect(line).toMatch(/huge\.json: .*256 MB/);
    expect(line).not.toMatch(/invalid JSON/);

    const [stdinLine] = await refusal(['import', '-'], Buffer.alloc(256 * MB + 1));
    expect(stdinLine).toMatch(/stdin: .*256 MB/);
  });

  it('a facility at the limits, 10,000 listings with the longest template, still answers its list', async () => {
    const id = 'f'.repeat(64);
    const template = urlOf('https://rent.example.com/{facility}/{code}?f={facility}&c={code}&x=', 2048);
    const listings = Array.from({ length: 10_000 }, (_, i) =>
      listingJson(`C${String(i).padStart(63, '0')}`, 'Unit', i),
    );
    const data = { facilities: [{ id, name: 'Big', currency: 'EUR', rental_page_url: template, listings }] };
    const db = openDb(dbFile);
    applyImport(db, parseImport(JSON.stringify(data), 'max.json'));
    const { key } = issueKey(db, id);
    db.close();
    const handler = handlerOver(dbFile);
    try {
      const reply = await call(handler, '/external/listings', { key });
      expect(reply.status).toBe(200);
      const body = json(reply);
      expect(body.listings).toHaveLength(10_000);
      // 2048 characters, two {facility} filled with 64 characters and two {code} with 64.
      const longest = Math.max(...body.listings.map((l: { rent_url: string }) => l.rent_url.length));
      expect(longest).toBe(2048 + 2 * (64 - '{facility}'.length) + 2 * (64 - '{code}'.length));
    } finally {
      handler.close();
    }
  });
});

describe('text that is not valid', () => {
  /** The demo file as bytes, with `bad` inserted after the first `after`; where the bad bytes are as an editor shows it. */
  function demoBytesWith(after: string, bad: number[], bom = false) {
    const text = JSON.stringify(demoJson(), null, 2);
    const at = text.indexOf(after) + after.length;
    expect(at).toBeGreaterThan(after.length);
    const head = Buffer.from(text.slice(0, at));
    const bytes = Buffer.concat([
      Buffer.from(bom ? [0xef, 0xbb, 0xbf] : []),
      head,
      Buffer.from(bad),
      Buffer.from(text.slice(at)),
    ]);
    const lines = text.slice(0, at).split('\n');
    return { bytes, line: lines.length, column: lines.at(-1)!.length + 1, offset: (bom ? 3 : 0) + head.length };
  }

  const WHERE = /invalid UTF-8 at line (\d+), column (\d+) \(byte offset (\d+)/;
  const whereOf = (line: string) => {
    const m = WHERE.exec(line);
    expect(m, line).not.toBeNull();
    return { line: Number(m![1]), column: Number(m![2]), offset: Number(m![3]) };
  };

  it.each([
    ['a byte that never starts a character (0xff)', [0xff], false],
    ['a sequence cut short (0xc5, then a letter)', [0xc5], false],
    ['an encoded surrogate (0xed 0xa0 0x80)', [0xed, 0xa0, 0x80], false],
    ['0xff after a byte order mark (columns count from after it; byte offsets do not)', [0xff], true],
  ])('invalid UTF-8 in a file: %s: its line, column and byte offset, nothing changed', async (_n, bad, bom) => {
    // After non-ASCII text on the same line, so that a column counted in bytes would be wrong.
    const { bytes, ...where } = demoBytesWith('Mała ', bad as number[], bom as boolean);
    expect(where.line).toBeGreaterThan(1);
    const file = join(dir, 'latin.json');
    writeFileSync(file, bytes);
    const lines = await refusal(['import', file]);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/latin\.json: invalid UTF-8/);
    expect(whereOf(lines[0]!)).toEqual(where);
  });

  it('invalid UTF-8 on standard input: the same place, named for stdin', async () => {
    const { bytes, ...where } = demoBytesWith('"description": "', [0xe9]);
    const lines = await refusal(['import', '-'], bytes);
    expect(lines).toEqual([expect.stringMatching(/^error: stdin: invalid UTF-8/)]);
    expect(whereOf(lines[0]!)).toEqual(where);
  });

  it('the real binary reads standard input as bytes too', () => {
    const { bytes, ...where } = demoBytesWith('"title": "', [0xc3, 0x28]);
    const r = spawnSync(process.execPath, [BIN, 'import', '-'], {
      cwd: REPO,
      env: { ...process.env, LISTINGS_DB: dbFile },
      input: bytes,
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(r.status).toBe(EXIT_BAD_INPUT);
    expect(r.stdout).toBe('');
    expect(whereOf(r.stderr)).toEqual(where);
    expect(dbBytes(dbFile).equals(before)).toBe(true);
  });

  it('lone surrogates in values and keys: each named by its path, with every other problem, nothing changed', async () => {
    const data = demoJson();
    data.facilities[0].listings[2].title = 'Unit \ud800 ground floor';
    data.facilities[2].name = 'Zurich \udbff';
    data.facilities[1].listings[0]['\udc00size'] = 1;
    data.facilities[0].listings[3].free_units = data.facilities[0].listings[3].total_units + 1;
    const file = writeJson(dir, 'surrogates.json', data);
    expect(readFileSync(file, 'latin1')).toMatch(/\\ud800/); // as an escape: the file itself is valid UTF-8

    const [first, ...problems] = await refusal(['import', file]);
    expect(first).toMatch(/surrogates\.json: 5 problems\b/);
    const lone = /: must be valid Unicode text \(lone surrogate\)$/;
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^ {2}facilities\[0\]\.listings\[2\]\.title: /),
        expect.stringMatching(/^ {2}facilities\[2\]\.name: /),
        expect.stringMatching(/^ {2}facilities\[1\]\.listings\[0\]\["\\udc00size"\]: /),
        expect.stringMatching(/^ {2}facilities\[1\]\.listings\[0\]\["\\udc00size"\]: unknown field$/),
        expect.stringMatching(/^ {2}facilities\[0\]\.listings\[3\]\.free_units: /),
      ]),
    );
    expect(problems.filter((p) => lone.test(p))).toHaveLength(3);
    // What an operator reads is well-formed text: no lone surrogate printed, no replacement character.
    for (const p of problems) expect(p).not.toMatch(/[\ud800-\udfff\ufffd]/);
  });

  it('accepts escaped surrogate pairs, an escaped backslash before "ud800", and a byte order mark', async () => {
    const text = JSON.stringify(demoJson(), null, 2)
      .replace('"title": "', '"title": "Box \\ud83d\\udce6 ')
      .replace('"description": "', '"description": "C:\\\\ud800 ');
    const file = join(dir, 'fine.json');
    writeFileSync(file, `\uFEFF${text}`);
    const io = bufferIo({ LISTINGS_DB: dbFile });
    expect(await runCli(['import', file, '--json'], io)).toBe(0);
    const imported = parseImport(text, 'fine.json').facilities[0]!.listings[0]!;
    expect(imported.title).toMatch(/^Box \u{1F4E6} /u);
    expect(imported.description).toMatch(/^C:\\ud800 /);
  });
});
