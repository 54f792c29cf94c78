// Text and links the import refuses, alike on a SQLite file and on PostgreSQL: control characters (NUL, other C0, DEL;
// tab and newline only in a description) and link templates that would not be served as the https URL they claim.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EXIT_BAD_INPUT, runCli } from '../cli/program.ts';
import { parseImport } from '../server/domain/import.ts';
import { openDb } from '../server/store/db.ts';
import { openStore } from '../server/store/store.ts';
import { BACKENDS, type Backend } from './helpers/setup.ts';
import { bufferIo, DEMO_DATA, demoJson, writeJson } from './helpers/fixture.ts';
import { usePostgres } from './helpers/postgres.ts';

const postgres = usePostgres();

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Spoil = (d: any) => void;

/** A database of either kind holding the demo data, as `listings import` left it. */
async function demoAt(backend: Backend, name: string): Promise<string> {
  const location = backend === 'sqlite' ? join(postgres.dir(), `${name}.db`) : await postgres.server().newDatabase();
  expect(await runCli(['import', DEMO_DATA], bufferIo({ LISTINGS_DB: location }))).toBe(0);
  return location;
}

/** What the database holds, as an operator lists it: an import that lands changes each facility's import time. */
async function holdings(location: string): Promise<string> {
  const io = bufferIo({ LISTINGS_DB: location });
  expect(await runCli(['facilities', 'list', '--json'], io)).toBe(0);
  expect(JSON.parse(io.stdout())).toHaveLength(4);
  return io.stdout();
}

/** `listings import` of the demo file spoiled by `spoil`: exit 1, nothing changed; the problem lines it printed. */
async function refused(location: string, name: string, spoil: Spoil): Promise<string[]> {
  const before = await holdings(location);
  const data = demoJson();
  data.facilities[0].listings[0].price_gross += 1000; // a valid change that must not land either
  spoil(data);
  const io = bufferIo({ LISTINGS_DB: location });
  expect(await runCli(['import', writeJson(postgres.dir(), `${name}.json`, data)], io)).toBe(EXIT_BAD_INPUT);
  expect(io.stdout()).toBe('');
  expect(await holdings(location)).toBe(before);
  const [head, ...problems] = io.stderr().trimEnd().split('\n');
  expect(head).toMatch(/nothing was changed/);
  expect(io.stderr()).not.toMatch(/\n\s+at |PostgreSQL|invalid byte sequence/);
  return problems.map((p) => p.trim());
}

/** Each spoiled field, by the JSON path the problem must name, with what it holds. */
const CONTROL_CASES: [string, string, Spoil][] = [
  ['NUL in a title', 'facilities[0].listings[1].title', (d) => (d.facilities[0].listings[1].title = 't\u0000itle')],
  [
    'NUL in a description',
    'facilities[0].listings[2].description',
    (d) => (d.facilities[0].listings[2].description = 'a\u0000b'),
  ],
  ['a bell in a facility name', 'facilities[1].name', (d) => (d.facilities[1].name = 'Lager\u0007box')],
  [
    'an escape in a photo caption',
    'facilities[0].listings[1].photos[0].caption',
    (d) => (d.facilities[0].listings[1].photos[0].caption = '\u001b[31mred'),
  ],
  ['DEL in a title', 'facilities[2].listings[0].title', (d) => (d.facilities[2].listings[0].title = 'Box\u007f')],
  [
    'DEL in a description',
    'facilities[2].listings[1].description',
    (d) => (d.facilities[2].listings[1].description = 'x\u007fy'),
  ],
  [
    'a carriage return in a description',
    'facilities[3].listings[0].description',
    (d) => (d.facilities[3].listings[0].description = 'one\r\ntwo'),
  ],
  [
    'a form feed in a description',
    'facilities[3].listings[1].description',
    (d) => (d.facilities[3].listings[1].description = 'one\ftwo'),
  ],
  [
    'a newline in a title',
    'facilities[0].listings[3].title',
    (d) => (d.facilities[0].listings[3].title = 'two\nlines'),
  ],
  ['a tab in a facility name', 'facilities[3].name', (d) => (d.facilities[3].name = 'Krak\tow')],
  [
    'a newline in a photo URL',
    'facilities[0].listings[2].photos[0].url',
    (d) => (d.facilities[0].listings[2].photos[0].url = 'https://img.example/a\nb.jpg'),
  ],
  [
    'a tab in a booking template',
    'facilities[1].booking_url',
    (d) => (d.facilities[1].booking_url = 'https://booking.example.com/\t{code}'),
  ],
];

describe.each(BACKENDS)('on %s', (backend) => {
  it.each(CONTROL_CASES)('refuses %s, naming %s and the character', async (name, path, spoil) => {
    const location = await demoAt(backend, `control-${CONTROL_CASES.findIndex((c) => c[0] === name)}`);
    const problems = await refused(location, 'control', spoil);
    expect(problems).toEqual([
      expect.stringMatching(
        new RegExp(`^${escape(path)}: .*control characters.*\\(U\\+00[0-7][0-9A-F] at character \\d+\\)$`),
      ),
    ]);
  });

  it('refuses every control character at once, each by its path, and nothing lands', async () => {
    const location = await demoAt(backend, 'all');
    const problems = await refused(location, 'all', (d) => {
      for (const [, , spoil] of CONTROL_CASES) spoil(d);
    });
    expect(problems.map((p) => p.slice(0, p.indexOf(': ')))).toEqual(
      expect.arrayContaining(CONTROL_CASES.map((c) => c[1])),
    );
    expect(problems).toHaveLength(CONTROL_CASES.length);
  });

  it('keeps tab and newline in a description, stored as imported', async () => {
    const location = await demoAt(backend, 'multi-line');
    const data = demoJson();
    const description = 'Ground floor.\n\tDrive-up access.';
    data.facilities[0].listings[0].description = description;
    const io = bufferIo({ LISTINGS_DB: location });
    expect(await runCli(['import', writeJson(postgres.dir(), 'multi-line.json', data)], io), io.stderr()).toBe(0);
    const store = await openStore(location);
    try {
      const stored = (await store.facilityData('wro-1'))!.listings.find(
        (l) => l.code === data.facilities[0].listings[0].code,
      );
      expect(stored?.description).toBe(description);
    } finally {
      await store.close();
    }
  });
});

describe('listings db copy', () => {
  it('copies a clean file, tab and newline in a description included, into PostgreSQL as it is', async () => {
    const file = await demoAt('sqlite', 'copy-source');
    const data = demoJson();
    data.facilities[1].listings[0].description = 'Indoor.\n\tLift to every floor.';
    expect(
      await runCli(['import', writeJson(postgres.dir(), 'copy.json', data)], bufferIo({ LISTINGS_DB: file })),
    ).toBe(0);
    const target = await postgres.server().newDatabase();
    const io = bufferIo({ LISTINGS_DB: file });
    expect(await runCli(['db', 'copy', '--from', file, '--to', target], io), io.stderr()).toBe(0);
    for (const location of [file, target]) {
      const store = await openStore(location);
      try {
        expect((await store.facilityData('ber-1'))!.listings[0]!.description).toBe(
          data.facilities[1].listings[0].description,
        );
      } finally {
        await store.close();
      }
    }
    expect(await holdings(target)).toBe(await holdings(file));
  });

  it('refuses a file that holds a NUL anyway (written by hand), naming the row and column, and copies nothing', async () => {
    const file = await demoAt('sqlite', 'copy-nul');
    const db = openDb(file);
    const id = db.prepare<[], string>("SELECT id FROM listings WHERE facility_id = 'zrh-1' LIMIT 1").pluck().get()!;
    db.prepare("UPDATE listings SET title = 'Box' || char(0) || 'A' WHERE id = ?").run(id);
    db.close();
    const target = await postgres.server().newDatabase();
    const io = bufferIo({ LISTINGS_DB: file });
    expect(await runCli(['db', 'copy', '--from', file, '--to', target], io)).toBe(EXIT_BAD_INPUT);
    expect(io.stderr().trimEnd().split('\n')).toEqual([
      expect.stringMatching(
        new RegExp(`listings ${id}: title holds a NUL character \\(U\\+0000\\).*nothing was copied`),
      ),
    ]);
    const store = await openStore(target);
    try {
      expect(await store.listFacilities()).toEqual([]);
    } finally {
      await store.close();
    }
  });
});

/** A regular expression that matches `text` as it is. */
function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

describe('link templates', () => {
  const parse = (spoil: Spoil) => {
    const data = demoJson();
    spoil(data);
    return () => parseImport(JSON.stringify(data), 'links.json');
  };
  const problemsOf = (spoil: Spoil): string[] => {
    try {
      parse(spoil)();
    } catch (err) {
      return (err as { details: string[] }).details;
    }
    throw new Error('the file was accepted');
  };

  it.each([
    ['markup in the host', 'rental_page_url', 'https://"><svg onload=alert(1)>{code}'],
    ['markup in the path', 'rental_page_url', 'https://rent.example.com/"><svg onload=alert(1)>/{code}'],
    ['markup in a booking template', 'booking_url', "https://booking.example.com/{code}?x=<script>alert('x')</script>"],
    ['a space', 'booking_url', 'https://booking.example.com/my page/{code}'],
    ['a backslash', 'rental_page_url', 'https://rent.example.com\\evil.example/{code}'],
    ['a misspelt placeholder', 'rental_page_url', 'https://rent.example.com/{facilty}/{code}'],
    ['no host', 'rental_page_url', 'https:///{code}'],
    ['no slashes', 'booking_url', 'https:booking.example.com/{code}'],
    ['plain http', 'rental_page_url', 'http://rent.example.com/{facility}/{code}'],
    ['another scheme', 'booking_url', 'javascript:alert(1)//{code}'],
    ['a scheme after a placeholder', 'booking_url', '{code}https://booking.example.com/'],
    ['not a URL at all', 'booking_url', 'call us'],
  ])('refuses %s, naming the template by its path', (_name, field, template) => {
    const problems = problemsOf((d) => (d.facilities[2][field] = template));
    expect(problems).toEqual([expect.stringMatching(new RegExp(`^facilities\\[2\\]\\.${field}: `))]);
  });

  it('a rental page template still needs {code}', () => {
    expect(problemsOf((d) => (d.facilities[0].rental_page_url = 'https://rent.example.com/units'))).toEqual([
      expect.stringMatching(/^facilities\[0\]\.rental_page_url: .*\{code\}/),
    ]);
  });

  it.each([
    'https://rent.example.com/{facility}/{code}',
    'https://{facility}.rent.example.com/units/{code}?ref=partner&utm_source=listings#book',
    'https://booking.example.com:8443/%7Bliteral%7D/{code}',
    'https://xn--wrocaw-7db.example.pl/wynajem/{code}',
    'https://wrocław.example.pl/łódź/{code}',
    'https://[2001:db8::1]/rent/{code}',
  ])('accepts %s', (template) => {
    expect(parse((d) => (d.facilities[0].rental_page_url = d.facilities[1].booking_url = template))).not.toThrow();
  });
});
