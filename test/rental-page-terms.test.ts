// The rental page shows what the widget shows beyond price, as the API answers it: promotions with the regular price
// struck through, the schedule, move-in with its parts, protection, unit facts and the facility's address, hours and
// amenities, and nothing of them for a listing and facility without (a promotion's start and end: rental-page-time).
import { describe, expect, it } from 'vitest';
import { parseImport } from '../server/domain/import.ts';
import type { Detail, ListResponse } from '../shared/listing.ts';
import { issueKey } from './helpers/fixture.ts';
import { promotion, richJson } from './helpers/rental-info.ts';
import { useDemoHandler } from './helpers/setup.ts';
import { call, json } from './helpers/http.ts';

/** The instant the tests' clock shows; each test sets it, forward only (a kept page is kept until its next change). */
let now = Date.parse('2026-06-01T12:00:00Z');
const STARTS = '2026-06-10T00:00:00Z';
const ENDS = '2026-06-19T22:00:00Z'; // midnight in Warsaw, the facility's time zone: the offer's last day is 19 June

const data = richJson([
  promotion({ code: 'ONE', title: 'First month 1 zł', kind: 'fixed_price', value: 100, ends_at: null }),
  promotion({
    code: 'HALF3',
    title: '50 % off 3 months',
    from_period: 1,
    to_period: 3,
    starts_at: STARTS,
    ends_at: ENDS,
  }),
]);
let key = '';
const demo = useDemoHandler({
  data: parseImport(JSON.stringify(data), 'rich.json'),
  prepare: (db) => {
    key = issueKey(db, 'wro-1').key;
  },
  handler: { clock: () => now },
});

const pageOf = async (code: string) => {
  const r = await call(demo.handler, `/rent/wro-1/${code}`, { headers: { 'accept-language': 'en' } });
  expect(r.status).toBe(200);
  return r.text;
};

async function detailOf(code: string): Promise<Detail> {
  const list: ListResponse = json(await call(demo.handler, '/external/listings', { key }));
  const id = list.listings.find((l) => l.code === code)!.id;
  return json(await call(demo.handler, `/external/listings/${id}`, { key }));
}

/** The minor units of each `data-minor` inside the element with this data-field. */
function minorsIn(html: string, field: string): number[] {
  const element = new RegExp(`data-field="${field}"[^>]*>([\\s\\S]*?)</tbody>`).exec(html);
  expect(element, field).not.toBeNull();
  return [...element![1]!.matchAll(/data-minor="(\d+)"/g)].map((m) => Number(m[1]));
}

const RICH = data.facilities.find((f) => f.id === 'wro-1')!.listings[0].code as string;
const PLAIN = 'L-12';

describe('a listing with every part', () => {
  it('shows the winning promotion: its title, its price and the regular price struck through, said for screen readers', async () => {
    now = Date.parse('2026-06-01T12:00:00Z');
    const [page, d] = [await pageOf(RICH), await detailOf(RICH)];
    expect(d.promotions.map((p) => p.code)).toEqual(['ONE']);
    expect(page).toContain('<p class="promotion-title" data-field="promotion">First month 1 zł</p>');
    expect(page).toMatch(
      new RegExp(
        `data-field="promoted" data-minor="100">PLN\u00a01.00</span> <s class="regular-price"><span class="gross" data-field="gross" data-minor="${d.price.gross}">`,
      ),
    );
    expect(page).toContain('<span class="sr-only">PLN\u00a01.00 instead of PLN\u00a0');
  });

  it('shows the schedule and the move-in total with every part, as the API prices them', async () => {
    now = Date.parse('2026-06-12T12:00:00Z'); // both promotions run: month 1 at 1 zł, months 2-3 at half
    const [page, d] = [await pageOf(RICH), await detailOf(RICH)];
    expect(d.schedule.length).toBe(3);
    expect(minorsIn(page, 'schedule')).toEqual(d.schedule.map((run) => run.gross));
    expect(page).toContain('<th scope="row">Month 1</th>');
    expect(page).toContain('<th scope="row">Months 2–3</th>');
    expect(page).toContain('<th scope="row">From month 4</th>');
    // ends_at is exclusive: the page names the last day the offer holds, not the day it is gone
    expect(page).toContain(`, until <time datetime="${ENDS}">June 19, 2026</time>.`);
    expect(minorsIn(page, 'move_in')).toEqual(d.move_in.parts.map((p) => p.gross));
    expect(d.move_in.parts.map((p) => p.kind)).toEqual(['first_period', 'deposit', 'fee', 'protection']);
    expect(page).toContain(`data-field="move_in_total" data-minor="${d.move_in.gross}"`);
    expect(page).toContain('<th scope="row">Admin fee</th>');
    expect(page).toContain('<th scope="row">Basic cover</th>');
  });

  it('shows protection, unit type, features, floor, door, the move-out fee and the facility', async () => {
    const page = await pageOf(RICH);
    expect(page).toContain('data-field="protection" data-required="true">Required');
    expect(page).toContain('<dd data-field="unit_type">Medium unit</dd>');
    expect(page).toContain(
      '<ul class="features" data-field="features"><li data-feature="drive_up">Drive-up</li><li data-feature="ground_floor">Ground floor</li></ul>',
    );
    expect(page).toContain('<dd data-field="floor">Ground floor</dd>');
    expect(page).toContain('<dd data-field="door">2 × 2.2\u00a0m</dd>');
    expect(page).toContain('<dd data-fee="clean">PLN\u00a020.00 at move-out</dd>');
    expect(page).toContain('<bdi>ul. Legnicka 12</bdi>, <bdi>53-674</bdi> <bdi>Wrocław</bdi>, PL');
    expect(page).toContain(
      'href="https://www.openstreetmap.org/?mlat=51.1129&amp;mlon=17.0112#map=17/51.1129/17.0112">Map (OpenStreetMap)</a>',
    );
    expect(page).toContain('<th scope="row">Friday</th><td>08:00–12:00, 13:00–18:00</td>');
    expect(page).toContain('<th scope="row">Sunday</th><td>Closed</td>');
    expect(page).toMatch(/data-field="access_hours">.*<td>Open 24\/7<\/td>/);
    expect(page).toContain('<li data-amenity="loading_bay">Loading bay</li>');
    // The page has no script of its own (CSP: none inline), so "open now" is the widget's: a cached page cannot know it.
    expect(page).not.toMatch(/open now/i);
  });

  it('shows the second listing only the parts it has', async () => {
    const page = await pageOf(data.facilities.find((f) => f.id === 'wro-1')!.listings[1].code);
    expect(page).toContain('<dd data-field="unit_type">Small unit</dd>');
    expect(page).toContain('<dd data-field="floor">2</dd>');
    expect(page).not.toContain('data-field="door"');
    expect(page).not.toContain('data-field="promotion"');
  });
});

describe('a listing without the richer fields', () => {
  it('shows none of their parts; its move-in is its first month and deposit', async () => {
    // zrh-1 is as the demo has it: no address, hours, fees, protection or unit fields.
    const zurich = data.facilities.find((f) => f.id === 'zrh-1')!;
    expect(Object.keys(zurich).sort()).toEqual(['currency', 'id', 'listings', 'name', 'pricing_rules']);
    const page = (await call(demo.handler, `/rent/zrh-1/${zurich.listings[0].code}`)).text;
    for (const part of [
      'data-field="promotion"',
      'data-field="schedule"',
      'class="promotions"',
      'data-field="protection"',
      'data-field="unit_type"',
      'data-field="features"',
      'data-field="floor"',
      'data-field="door"',
      'data-fee=',
      'class="facility-info"',
      'data-field="address"',
      'data-field="office_hours"',
      'data-field="amenities"',
      '<s ',
    ])
      expect(page, part).not.toContain(part);
    expect(page).toMatch(/<tr data-part="first_period">.*<tr data-part="deposit">/);
    expect(page).not.toContain('data-part="fee"');
    expect(page).not.toContain('data-part="protection"');
  });

  it("in the same facility as richer listings: the facility's parts, none of the unit's", async () => {
    const page = await pageOf(PLAIN);
    expect(page).toContain('class="facility-info"');
    for (const part of ['data-field="promotion"', 'data-field="unit_type"', 'data-field="features"', '<s '])
      expect(page, part).not.toContain(part);
  });
});
