// What the API answers beyond price: the list's facility object and each Summary's and Detail's new fields (always
// present, null or [] when not given), the features= and unit_type= filters, and promotions that start and end on a
// running server at their instant, with the ETag.
import { afterAll, describe, expect, it } from 'vitest';
import { listingIdOf } from '../server/domain/facility.ts';
import { parseImport } from '../server/domain/import.ts';
import { FacilityInfo, Detail, Summary } from '../shared/listing.ts';
import { demoDb, issueKey, tempDir } from './helpers/fixture.ts';
import { call, json } from './helpers/http.ts';
import { handlerOver } from './helpers/inject.ts';
import { promotion, richJson } from './helpers/rental-info.ts';
import { useDemoHandler } from './helpers/setup.ts';

const LIST = '/external/listings';
const FIRST = listingIdOf('wro-1', 'XS-01');
let wro: { key: string };
let ber: { key: string };
const rich = richJson();
const demo = useDemoHandler({
  data: parseImport(JSON.stringify(rich), 'rich.json'),
  prepare: (db) => {
    wro = issueKey(db, 'wro-1');
    ber = issueKey(db, 'ber-1');
  },
  // The rich file's promotion ends 2026-12-31T23:00:00Z: answers are asked for before that.
  handler: { clock: () => Date.parse('2026-06-01T00:00:00Z') },
});

const SUMMARY_KEYS = Object.keys(Summary.shape);
const DETAIL_KEYS = Object.keys(Detail.shape);

describe('the answer beyond price', () => {
  it("carries the facility's address, hours, amenities, fees and protection on the list", async () => {
    const body = json(await call(demo.handler, LIST, { key: wro.key }));
    expect(FacilityInfo.parse(body.facility)).toEqual(body.facility);
    expect(body.facility).toMatchObject({
      address: { street: 'ul. Legnicka 12', postal_code: '53-674', city: 'Wrocław', region: null, country: 'PL' },
      geo: { lat: 51.1129, lng: 17.0112 },
      timezone: 'Europe/Warsaw',
      amenities: ['cctv', 'gated', 'loading_bay', 'trolleys'],
      fees: [
        {
          code: 'admin',
          title: 'Admin fee',
          when: 'move_in',
          amount: { gross: 4900, net: 3984, vat_rate: 23, currency: 'PLN' },
        },
        { code: 'clean', when: 'move_out', amount: { gross: 2000, net: 1626 } },
      ],
      protection: {
        required: true,
        plans: [
          {
            code: 'basic',
            cover: { amount: 500000, currency: 'PLN' },
            price: { gross: 1500, net: 1220, period: 'P1M' },
          },
          { code: 'plus', price: { gross: 3000 } },
        ],
      },
    });
    expect(body.facility.office_hours.fr).toEqual(['08:00-12:00', '13:00-18:00']);
    expect(body.facility.access_hours.su).toEqual(['00:00-24:00']);
  });

  it('gives every new field on a facility and listings without them: null or []', async () => {
    const body = json(await call(demo.handler, LIST, { key: ber.key }));
    expect(body.facility).toEqual({
      id: 'ber-1',
      name: rich.facilities[1].name,
      address: null,
      geo: null,
      contact: null,
      timezone: null,
      office_hours: null,
      access_hours: null,
      amenities: [],
      fees: [],
      protection: null,
    });
    for (const s of body.listings) {
      expect(Object.keys(s)).toEqual(SUMMARY_KEYS);
      expect(s).toMatchObject({ unit_type: null, features: [], promotions: [] });
      expect(s.schedule).toEqual([
        { from_period: 1, to_period: null, gross: s.price.gross, net: s.price.net, promotion: null },
      ]);
      expect(s.move_in.parts.map((p: { kind: string }) => p.kind)).toEqual(
        s.move_in.parts.length === 2 ? ['first_period', 'deposit'] : ['first_period'],
      );
    }
    const detail = json(await call(demo.handler, `${LIST}/${body.listings[0].id}`, { key: ber.key }));
    expect(Object.keys(detail)).toEqual(DETAIL_KEYS);
    expect(detail).toMatchObject({ floor: null, door: null, fees: [], protection: null });
  });

  it('prices the promotion, schedule and move-in of a listing with one, the same in list and detail', async () => {
    const list = json(await call(demo.handler, LIST, { key: wro.key }));
    const summary = list.listings.find((s: { id: string }) => s.id === FIRST);
    const regular = summary.price.gross;
    const half = Math.round(regular / 2);
    expect(summary).toMatchObject({ unit_type: 'medium', features: ['drive_up', 'ground_floor'] });
    expect(summary.promotions).toEqual([
      { ...promotion(), price: { ...summary.price, gross: half, net: expect.any(Number) } },
    ]);
    expect(summary.schedule).toEqual([
      { from_period: 1, to_period: 1, gross: half, net: expect.any(Number), promotion: 'FIRST50' },
      { from_period: 2, to_period: null, gross: regular, net: summary.price.net, promotion: null },
    ]);
    const deposit = rich.facilities[0].listings[0].deposit;
    expect(summary.move_in.parts).toEqual([
      { kind: 'first_period', code: 'FIRST50', gross: half, net: expect.any(Number), vat_rate: 23 },
      ...(deposit > 0 ? [{ kind: 'deposit', code: null, gross: deposit, net: deposit, vat_rate: 0 }] : []),
      { kind: 'fee', code: 'admin', gross: 4900, net: 3984, vat_rate: 23 },
      { kind: 'protection', code: 'basic', gross: 1500, net: 1220, vat_rate: 23 },
    ]);
    expect(summary.move_in.gross).toBe(half + deposit + 4900 + 1500);
    const detail = json(await call(demo.handler, `${LIST}/${FIRST}`, { key: wro.key }));
    expect(Object.keys(detail)).toEqual(DETAIL_KEYS);
    const {
      dimensions: _d,
      description: _t,
      min_rental_period: _m,
      notice_period: _n,
      deposit: _p,
      photos: _h,
      ...rest
    } = detail;
    expect(rest).toEqual({
      ...summary,
      floor: 0,
      door: { width_m: 2, height_m: 2.2 },
      fees: list.facility.fees,
      protection: list.facility.protection,
    });
  });
});

describe('filters', () => {
  const codes = async (query: string) => {
    const r = await call(demo.handler, `${LIST}${query}`, { key: wro.key });
    expect(r.status).toBe(200);
    return json(r).listings.map((s: { code: string }) => s.code);
  };
  const [first, second] = rich.facilities[0].listings.map((l: { code: string }) => l.code);

  it('features= keeps listings with every feature named; unit_type= those of any type named', async () => {
    expect(await codes('?features=drive_up')).toEqual([first]);
    expect(await codes('?features=indoor,heated')).toEqual([second]);
    expect(await codes('?features=drive_up,heated')).toEqual([]);
    expect(await codes('?features=shelving')).toEqual([]);
    expect(await codes('?unit_type=medium')).toEqual([first]);
    expect(await codes('?unit_type=small,medium&sort=code')).toEqual([first, second].sort());
    expect(await codes('?unit_type=locker')).toEqual([]);
    expect(await codes('?unit_type=small%2Cmedium&features=heated')).toEqual([second]);
  });

  it('each result has its own ETag, and a 304 for it', async () => {
    const a = await call(demo.handler, `${LIST}?features=drive_up`, { key: wro.key });
    const b = await call(demo.handler, `${LIST}?unit_type=small`, { key: wro.key });
    expect(a.headers.etag).not.toBe(b.headers.etag);
    const again = await call(demo.handler, `${LIST}?features=drive_up`, {
      key: wro.key,
      headers: { 'if-none-match': a.headers.etag! },
    });
    expect(again.status).toBe(304);
  });

  it.each([
    ['an unknown feature', '?features=moat', 'features'],
    ['an unknown unit type', '?unit_type=huge', 'unit_type'],
    ['an empty value', '?features=', 'features'],
    ['an empty word', '?unit_type=small,,medium', 'unit_type'],
    ['a trailing comma', '?features=heated,', 'features'],
    ['a repeated parameter', '?unit_type=small&unit_type=medium', 'unit_type'],
    ['a repeated features', '?features=heated&features=indoor', 'features'],
  ])('refuses %s: 400 invalid_parameter naming the parameter', async (_name, query, param) => {
    const r = await call(demo.handler, `${LIST}${query}`, { key: wro.key });
    expect(r.status).toBe(400);
    const body = json(r);
    expect(body.code).toBe('invalid_parameter');
    expect(body.detail).toMatch(new RegExp(`^${param}: `));
    if (/unknown/.test(_name)) expect(body.detail).toMatch(param === 'features' ? /drive_up/ : /medium/);
  });
});

describe('a promotion starts and ends at its instant on a running server', () => {
  const { dir, cleanup } = tempDir();
  afterAll(cleanup);
  const STARTS = Date.parse('2030-03-01T00:00:00Z');
  const ENDS = Date.parse('2030-04-01T00:00:00Z');
  let now = STARTS - 60_000;
  const data = richJson([
    promotion({ starts_at: '2030-03-01T01:00:00+01:00', ends_at: '2030-04-01T00:00:00Z', code: 'SPRING' }),
  ]);
  const { file, db } = demoDb(dir, parseImport(JSON.stringify(data), 'spring.json'));
  const key = issueKey(db, 'wro-1').key;
  db.close();
  const handler = handlerOver(file, { clock: () => now });
  afterAll(() => handler.close());

  const read = async (path: string) => {
    const r = await call(handler, path, { key });
    expect(r.status).toBe(200);
    return { etag: r.headers.etag!, body: json(r) };
  };
  const promoted = (body: { listings?: { id: string; promotions: unknown[] }[]; promotions?: unknown[] }) =>
    (body.listings ? body.listings.find((s) => s.id === FIRST)! : body).promotions!.length;
  const page = () => call(handler, '/rent/wro-1/XS-01').then((r) => r.text);

  it('list, filtered list, detail and ETags change at starts_at and at ends_at, not before', async () => {
    const paths = [LIST, `${LIST}?features=drive_up`, `${LIST}/${FIRST}`];
    const before = await Promise.all(paths.map(read));
    const pageBefore = await page();
    for (const r of before) expect(promoted(r.body)).toBe(0);
    now = STARTS - 1;
    for (const [i, path] of paths.entries()) expect((await read(path)).etag).toBe(before[i]!.etag);
    now = STARTS;
    const during = await Promise.all(paths.map(read));
    for (const [i, r] of during.entries()) {
      expect(promoted(r.body)).toBe(1);
      expect(r.etag).not.toBe(before[i]!.etag);
    }
    expect(await page()).not.toBe(pageBefore);
    const stale = await call(handler, LIST, { key, headers: { 'if-none-match': before[0]!.etag } });
    expect(stale.status).toBe(200);
    now = ENDS - 1;
    for (const [i, path] of paths.entries()) expect((await read(path)).etag).toBe(during[i]!.etag);
    now = ENDS;
    const after = await Promise.all(paths.map(read));
    for (const [i, r] of after.entries()) {
      expect(promoted(r.body)).toBe(0);
      expect(r.etag).toBe(before[i]!.etag);
    }
    expect(await page()).toBe(pageBefore);
  });
});
