// The import's fields beyond price (address, hours, fees, protection, features, promotions): each rule refused with its
// JSON path and the allowed values, nothing imported on either backend; a valid file lands the same on both and in
// `db copy`; a file without them imports as before.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EXIT_BAD_INPUT, runCli } from '../cli/program.ts';
import { parseImport } from '../server/domain/import.ts';
import { COUNTRIES, e164Of } from '../server/schemas/places.ts';
import { openStore } from '../server/store/store.ts';
import { BACKENDS } from './helpers/setup.ts';
import { bufferIo, writeJson } from './helpers/fixture.ts';
import { usePostgres } from './helpers/postgres.ts';
import { plainJson, problemsOf, promotion, richJson, type Spoil } from './helpers/rental-info.ts';

const postgres = usePostgres();

const L0 = 'facilities[0].listings[0]';
/** A well-formed email address of `length` characters, of 60-character labels. */
const emailOf = (length: number) => {
  const domain = `${'b'.repeat(60)}.`.repeat(4) + 'com';
  return `${'a'.repeat(length - domain.length - 1)}@${domain}`;
};
/** Each rule: the spoil, the path it must name and what the message must say (the rule or the allowed values). */
const RULES: [string, Spoil, string, RegExp][] = [
  ['an unknown amenity', (f) => f.amenities.push('sauna'), 'facilities[0].amenities[4]', /cctv, gated, alarm, .*wifi/],
  [
    'an unknown feature',
    (f) => (f.listings[0].features = ['moat']),
    `${L0}.features[0]`,
    /climate_controlled, .*roll_up_door/,
  ],
  ['an unknown unit type', (f) => (f.listings[0].unit_type = 'huge'), `${L0}.unit_type`, /locker, small, .*archive/],
  ['a duplicate feature', (f) => (f.listings[0].features = ['heated', 'heated']), `${L0}.features[1]`, /duplicate/],
  ['lat out of range', (f) => (f.geo.lat = 91), 'facilities[0].geo.lat', /-90 to 90/],
  ['lng out of range', (f) => (f.geo.lng = -180.5), 'facilities[0].geo.lng', /-180 to 180/],
  [
    'a country outside ISO 3166-1',
    (f) => (f.address.country = 'EU'),
    'facilities[0].address.country',
    /ISO 3166-1 alpha-2/,
  ],
  ['a lower-case country', (f) => (f.address.country = 'pl'), 'facilities[0].address.country', /ISO 3166-1 alpha-2/],
  [
    'a phone that is not E.164',
    (f) => (f.contact = { phone: '071 555 01 07' }),
    'facilities[0].contact.phone',
    /E\.164/,
  ],
  [
    'an email over 254 characters',
    (f) => (f.contact = { email: emailOf(255) }),
    'facilities[0].contact.email',
    /at most 254 characters/,
  ],
  ['an unknown time zone', (f) => (f.timezone = 'Europe/Wroclaw'), 'facilities[0].timezone', /IANA time zone/],
  [
    'a time zone in another case',
    (f) => (f.timezone = 'europe/warsaw'),
    'facilities[0].timezone',
    /as IANA spells it: Europe\/Warsaw/,
  ],
  ['UTC in lower case', (f) => (f.timezone = 'utc'), 'facilities[0].timezone', /as IANA spells it: UTC$/],
  ['an offset for a time zone', (f) => (f.timezone = '+01:00'), 'facilities[0].timezone', /IANA time zone/],
  ['hours without a time zone', (f) => delete f.timezone, 'facilities[0].timezone', /must be given with office_hours/],
  ['a malformed range', (f) => (f.office_hours.mo = ['9:00-18:00']), 'facilities[0].office_hours.mo[0]', /HH:MM-HH:MM/],
  [
    'a range past 24:00',
    (f) => (f.office_hours.mo = ['09:00-24:30']),
    'facilities[0].office_hours.mo[0]',
    /HH:MM-HH:MM/,
  ],
  [
    'overlapping ranges',
    (f) => (f.office_hours.tu = ['09:00-13:00', '12:00-18:00']),
    'facilities[0].office_hours.tu[1]',
    /must not overlap 09:00-13:00/,
  ],
  [
    'a day of 13 ranges',
    (f) =>
      (f.office_hours.th = Array.from(
        { length: 13 },
        (_, h) => `${String(h).padStart(2, '0')}:00-${String(h).padStart(2, '0')}:30`,
      )),
    'facilities[0].office_hours.th',
    /at most 12 ranges a day/,
  ],
  [
    'a range crossing midnight',
    (f) => (f.office_hours.we = ['22:00-02:00']),
    'facilities[0].office_hours.we[0]',
    /cross midnight/,
  ],
  [
    'hours that are neither 24/7 nor a week',
    (f) => (f.access_hours = 'always'),
    'facilities[0].access_hours',
    /"24\/7"/,
  ],
  ['a percent over 100', (f) => (f.listings[0].promotions[0].value = 101), `${L0}.promotions[0].value`, /1 to 100/],
  [
    'a negative amount off',
    (f) => Object.assign(f.listings[0].promotions[0], { kind: 'amount_off', value: -100 }),
    `${L0}.promotions[0].value`,
    /must not be negative/,
  ],
  [
    'a negative fee',
    (f) => (f.fees[0].amount_gross = -1),
    'facilities[0].fees[0].amount_gross',
    /must not be negative/,
  ],
  [
    'from_period after to_period',
    (f) => Object.assign(f.listings[0].promotions[0], { from_period: 3, to_period: 2 }),
    `${L0}.promotions[0].to_period`,
    /at least from_period \(3\)/,
  ],
  [
    'ends_at before starts_at',
    (f) =>
      Object.assign(f.listings[0].promotions[0], {
        starts_at: '2026-06-01T00:00:00+02:00',
        ends_at: '2026-05-01T00:00:00Z',
      }),
    `${L0}.promotions[0].ends_at`,
    /after starts_at \(2026-05-31T22:00:00Z\)/,
  ],
  [
    'a time without an offset',
    (f) => (f.listings[0].promotions[0].ends_at = '2026-12-31T23:00:00'),
    `${L0}.promotions[0].ends_at`,
    /offset/,
  ],
  [
    'an unknown promotion kind',
    (f) => (f.listings[0].promotions[0].kind = 'bogo'),
    `${L0}.promotions[0].kind`,
    /percent, amount_off, fixed_price/,
  ],
  [
    'a fee when outside its two values',
    (f) => (f.fees[0].when = 'monthly'),
    'facilities[0].fees[0].when',
    /move_in, move_out/,
  ],
  [
    'required protection without plans',
    (f) => (f.protection.plans = []),
    'facilities[0].protection.plans',
    /at least one plan when required is true/,
  ],
  [
    'a control character in a fee title',
    (f) => (f.fees[0].title = 'Admin\u0007'),
    'facilities[0].fees[0].title',
    /control characters/,
  ],
  [
    'a control character in promotion terms',
    (f) => (f.listings[0].promotions[0].terms = 'a\u0000b'),
    `${L0}.promotions[0].terms`,
    /control characters/,
  ],
  ['a floor above 200', (f) => (f.listings[0].floor = 201), `${L0}.floor`, /whole number from -20 to 200/],
  ['a floor below -20', (f) => (f.listings[1].floor = -21), 'facilities[0].listings[1].floor', /from -20 to 200/],
  [
    'a period past 1200',
    (f) => Object.assign(f.listings[0].promotions[0], { from_period: 1, to_period: 1201 }),
    `${L0}.promotions[0].to_period`,
    /whole number from 1 to 1200/,
  ],
  [
    'an amount off over 10^12',
    (f) => Object.assign(f.listings[0].promotions[0], { kind: 'amount_off', value: 10 ** 12 + 1 }),
    `${L0}.promotions[0].value`,
    /at most 10\^12/,
  ],
  ['a fee over 10^12', (f) => (f.fees[1].amount_gross = 10 ** 12 + 1), 'facilities[0].fees[1].amount_gross', /10\^12/],
  [
    'a photo URL over 2048 characters',
    (f) => (f.listings[0].photos = [{ url: `https://x.example/${'a'.repeat(2040)}`, caption: 'a' }]),
    `${L0}.photos[0].url`,
    /at most 2048 characters/,
  ],
  [
    'a link template over 2048 characters',
    (f) => (f.rental_page_url = `https://x.example/{code}/${'a'.repeat(2040)}`),
    'facilities[0].rental_page_url',
    /must be at most 2048 characters/,
  ],
  [
    'a duplicate fee code',
    (f) => f.fees.push({ ...f.fees[0] }),
    'facilities[0].fees[2].code',
    /duplicate code "admin"/,
  ],
];

describe('import rules beyond price', () => {
  it.each(RULES)('refuses %s, naming the path and the rule', (_name, spoil, path, rule) => {
    const problems = problemsOf(spoil);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(new RegExp(`^${path.replace(/[[\].]/g, '\\$&')}: `));
    expect(problems[0]).toMatch(rule);
  });

  it('reports each range that overlaps an earlier one of its day, not only the first', () => {
    const overlapsOf = (fr: string[]) => problemsOf((f) => (f.office_hours.fr = fr));
    expect(overlapsOf(['08:00-18:00', '09:00-10:00', '12:00-13:00'])).toEqual([
      'facilities[0].office_hours.fr[1]: must not overlap 08:00-18:00 of the same day',
      'facilities[0].office_hours.fr[2]: must not overlap 08:00-18:00 of the same day',
    ]);
    expect(overlapsOf(['12:00-13:00', '08:00-18:00', '09:00-10:00', '18:00-19:00', '18:30-20:00'])).toEqual([
      'facilities[0].office_hours.fr[2]: must not overlap 08:00-18:00 of the same day',
      'facilities[0].office_hours.fr[0]: must not overlap 08:00-18:00 of the same day',
      'facilities[0].office_hours.fr[4]: must not overlap 18:00-19:00 of the same day',
    ]);
  });

  it('accepts an email of 254 characters, the longest address SMTP carries', () => {
    expect(emailOf(254)).toHaveLength(254);
    expect(problemsOf((f) => (f.contact = { email: emailOf(254) }))).toEqual([]);
  });

  it('accepts each time zone name as IANA spells it, aliases too, whatever name Intl resolves it to', () => {
    for (const zone of [
      'UTC',
      'Etc/UTC',
      'Etc/GMT+5',
      'Europe/Kiev',
      'Europe/Kyiv',
      'US/Pacific',
      'America/Port-au-Prince',
    ])
      expect(
        problemsOf((f) => (f.timezone = zone)),
        zone,
      ).toEqual([]);
  });

  it('knows the 249 assigned ISO 3166-1 alpha-2 codes', () => {
    expect(COUNTRIES.size).toBe(249);
    for (const code of ['PL', 'DE', 'CH', 'GB', 'US', 'AX', 'SS']) expect(COUNTRIES.has(code)).toBe(true);
    for (const code of ['EU', 'UK', 'XK', 'ZZ']) expect(COUNTRIES.has(code)).toBe(false);
  });

  it('gives a phone in E.164 as written with separators, or with a bracketed trunk prefix "(0)"', () => {
    const written = ['+48 71 555 01 07', '+48 (71) 555-01-07', '+44 (0)20 7946 0000', '+41 ( 0 ) 44.668.18.00'];
    expect(written.map(e164Of)).toEqual(['+48715550107', '+48715550107', '+442079460000', '+41446681800']);
  });

  it('keeps photo URLs as the URL parser writes them: a quote, a space or a tag percent-encoded, never served raw', () => {
    const data = plainJson();
    data.facilities[0].listings[0].photos = [
      { url: 'https://x.test/a.jpg" onerror="alert(7)', caption: 'a' },
      { url: 'https://x.test/b.jpg?</script><script>alert(9)</script>', caption: 'b' },
      { url: 'https://cdn.example/unit 1.jpg', caption: 'c' },
      { url: 'https://x.test/ok.jpg?w=1&h=2', caption: 'd' },
    ];
    const photos = parseImport(JSON.stringify(data), 'f.json').facilities[0]!.listings[0]!.photos;
    expect(photos.map((p) => p.url)).toEqual([
      'https://x.test/a.jpg%22%20onerror=%22alert(7)',
      'https://x.test/b.jpg?%3C/script%3E%3Cscript%3Ealert(9)%3C/script%3E',
      'https://cdn.example/unit%201.jpg',
      'https://x.test/ok.jpg?w=1&h=2',
    ]);
  });

  it('normalises what answers give: 24/7 as a week, hours in order, times in UTC whole seconds, defaults', () => {
    const data = richJson([promotion({ starts_at: '2026-06-01T02:00:00+02:00', terms: undefined })]);
    delete data.facilities[0].listings[0].promotions[0].terms;
    delete data.facilities[0].listings[0].promotions[0].new_tenants_only;
    const wro = parseImport(JSON.stringify(data), 'f.json').facilities[0]!;
    expect(wro.access_hours?.su).toEqual(['00:00-24:00']);
    expect(wro.office_hours?.fr).toEqual(['08:00-12:00', '13:00-18:00']);
    expect(wro.listings[0]!.promotions[0]).toMatchObject({
      starts_at: '2026-06-01T00:00:00Z',
      terms: null,
      new_tenants_only: true,
    });
    expect(wro.address).toMatchObject({ region: null });
  });
});

describe.each(BACKENDS)('on %s', (backend) => {
  const locationOf = async (name: string) =>
    backend === 'sqlite' ? join(postgres.dir(), `${name}.db`) : await postgres.server().newDatabase();

  const plainFile = () => writeJson(postgres.dir(), `plain-${backend}.json`, plainJson());

  it('refuses a file breaking every rule at once, each by its path, and imports nothing', async () => {
    const location = await locationOf('all-rules');
    expect(await runCli(['import', plainFile()], bufferIo({ LISTINGS_DB: location }))).toBe(0);
    const list = async () => {
      const io = bufferIo({ LISTINGS_DB: location });
      expect(await runCli(['facilities', 'list', '--json'], io)).toBe(0);
      return io.stdout();
    };
    const before = await list();
    const data = richJson();
    // Rules on other fields than the ones each spoil replaces, so that all can fail in one file.
    for (const [name, spoil] of RULES)
      if (
        !/hours without|duplicate feature|lower-case|offset for|past 24|ends_at|negative amount off|terms|email over|period past|amount off over|in another case|UTC in/.test(
          name,
        )
      )
        spoil(data.facilities[0]);
    const io = bufferIo({ LISTINGS_DB: location });
    expect(await runCli(['import', writeJson(postgres.dir(), `all-${backend}.json`, data)], io)).toBe(EXIT_BAD_INPUT);
    const problems = io.stderr().trimEnd().split('\n').slice(1);
    expect(problems.length).toBeGreaterThanOrEqual(18);
    expect(io.stderr()).not.toMatch(/\n\s+at /);
    expect(await list()).toBe(before);
    const store = await openStore(location);
    try {
      expect((await store.facilityData('wro-1'))!.facility.address).toBeNull();
    } finally {
      await store.close();
    }
  });

  it('stores a time zone as IANA spells it and refuses one in another case, naming the spelling', async () => {
    const location = await locationOf('zones');
    const zoned = (timezone: string) => {
      const data = richJson();
      data.facilities[0].timezone = timezone;
      return writeJson(postgres.dir(), `zone-${backend}.json`, data);
    };
    const io = bufferIo({ LISTINGS_DB: location });
    expect(await runCli(['import', zoned('Etc/UTC')], io), io.stderr()).toBe(0);
    const refused = bufferIo({ LISTINGS_DB: location });
    expect(await runCli(['import', zoned('europe/warsaw')], refused)).toBe(EXIT_BAD_INPUT);
    expect(refused.stderr()).toContain('facilities[0].timezone: ');
    expect(refused.stderr()).toContain('Europe/Warsaw');
    const store = await openStore(location);
    try {
      expect((await store.facilityData('wro-1'))!.facility.timezone).toBe('Etc/UTC');
    } finally {
      await store.close();
    }
  });

  it('stores every field, reads them back as the domain has them, and a file without them clears them', async () => {
    const location = await locationOf('rich');
    const io = bufferIo({ LISTINGS_DB: location });
    expect(await runCli(['import', writeJson(postgres.dir(), 'rich.json', richJson())], io), io.stderr()).toBe(0);
    const store = await openStore(location);
    try {
      const data = (await store.facilityData('wro-1'))!;
      expect(data.facility).toMatchObject({
        address: { street: 'ul. Legnicka 12', postal_code: '53-674', city: 'Wrocław', region: null, country: 'PL' },
        geo: { lat: 51.1129, lng: 17.0112 },
        timezone: 'Europe/Warsaw',
        amenities: ['cctv', 'gated', 'loading_bay', 'trolleys'],
        fees: [
          { code: 'admin', title: 'Admin fee', amount_gross: 4900, vat_rate: 23, when: 'move_in' },
          { code: 'clean', title: 'Cleaning', amount_gross: 2000, vat_rate: 23, when: 'move_out' },
        ],
        protection: { required: true, plans: [{ code: 'basic' }, { code: 'plus', period: 'P1M' }] },
      });
      expect(data.facility.access_hours?.mo).toEqual(['00:00-24:00']);
      expect(data.listings[0]).toMatchObject({
        unit_type: 'medium',
        features: ['drive_up', 'ground_floor'],
        floor: 0,
        door: { width_m: 2, height_m: 2.2 },
        promotions: [{ ...promotion(), ends_at: '2026-12-31T23:00:00Z' }],
      });
      expect(data.listings[2]).toMatchObject({
        unit_type: null,
        features: [],
        floor: null,
        door: null,
        promotions: [],
      });
      expect(await runCli(['import', plainFile()], bufferIo({ LISTINGS_DB: location }))).toBe(0);
      const plain = (await store.facilityData('wro-1'))!;
      expect(plain.facility).toMatchObject({ address: null, geo: null, timezone: null, office_hours: null, fees: [] });
      expect(plain.listings[0]).toMatchObject({ unit_type: null, features: [], promotions: [] });
    } finally {
      await store.close();
    }
  });
});

describe('listings db copy', () => {
  it('carries every field beyond price into PostgreSQL', async () => {
    const file = join(postgres.dir(), 'copy-rich.db');
    const rich = writeJson(postgres.dir(), 'copy-rich.json', richJson());
    expect(await runCli(['import', rich], bufferIo({ LISTINGS_DB: file }))).toBe(0);
    const target = await postgres.server().newDatabase();
    const io = bufferIo({ LISTINGS_DB: file });
    expect(await runCli(['db', 'copy', '--from', file, '--to', target], io), io.stderr()).toBe(0);
    const [sqlite, pg] = [await openStore(file), await openStore(target)];
    try {
      for (const id of ['wro-1', 'ber-1']) {
        const copied = await pg.facilityData(id);
        expect(copied).toEqual(await sqlite.facilityData(id));
      }
      expect((await pg.facilityData('wro-1'))!.listings[0]!.promotions).toHaveLength(1);
    } finally {
      await sqlite.close();
      await pg.close();
    }
  });
});
