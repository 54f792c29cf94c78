// The rental page shows what the API answers: gross, net, free units and deposit, in its JSON-LD and its visible text.
// (What it shows beyond price: rental-page-terms.test.ts.)
import { describe, expect, it } from 'vitest';
import { applyImport } from '../server/store/facilities.ts';
import { parseImport } from '../server/domain/import.ts';
import { offerOf } from '../shared/structured-data.ts';
import type { Detail } from '../shared/listing.ts';
import { demoJson, issueKey } from './helpers/fixture.ts';
import { useDemoHandler } from './helpers/setup.ts';
import { call, json } from './helpers/http.ts';

const HOSTILE = {
  id: 'evil-1',
  name: '<b>Evil</b> & Co',
  currency: 'EUR',
  listings: [
    {
      code: 'X-1',
      title: '<script>alert(1)</script>',
      active: true,
      area_m2: 1,
      dimensions: { width_m: 1, depth_m: 1 },
      description: 'Fine print </script><script>alert(2)</script> & "quotes" \u2028 end',
      price_gross: 1000,
      vat_rate: 19,
      dynamic_pricing: false,
      total_units: 1,
      free_units: 1,
      min_rental_period: 'P1M',
      notice_period: 'P1M',
      deposit: 0,
      photos: [{ url: 'https://img.example/x.jpg', caption: '"><img src=x onerror=alert(3)>' }],
    },
  ],
};

/** The words these tests read are English ones (rental-page-language.test.ts: the other languages). */
const ENGLISH = { headers: { 'accept-language': 'en' } };

const keys = new Map<string, string>();
const demo = useDemoHandler({
  prepare: (db) => {
    applyImport(db, parseImport(JSON.stringify({ facilities: [HOSTILE] }), 'hostile.json'));
    for (const f of demoJson().facilities) keys.set(f.id, issueKey(db, f.id).key);
  },
});

interface Shown {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  ld: any;
  field: (name: string) => { minor: number | undefined; count: number | undefined; text: string };
}

/** What a visitor (and a search engine) reads on the page. */
function read(html: string): Shown {
  const scripts = [...html.matchAll(/<script type="application\/ld\+json">([^<]*)<\/script>/g)];
  expect(scripts).toHaveLength(1);
  return {
    ld: JSON.parse(scripts[0]![1]!),
    field: (name) => {
      const m = new RegExp(`<[a-z]+[^>]* data-field="${name}"((?: data-[a-z]+="[^"]*")*)>([^<]*)<`).exec(html);
      expect(m, `data-field="${name}"`).not.toBeNull();
      const attr = (a: string) => {
        const v = new RegExp(`data-${a}="(\\d+)"`).exec(m![1]!);
        return v ? Number(v[1]) : undefined;
      };
      return { minor: attr('minor'), count: attr('count'), text: m![2]! };
    },
  };
}

/** "PLN 1,234.56" -> 123456: the digits of a formatted amount are its minor units. */
const minorOfText = (text: string) => Number(text.replace(/\D/g, ''));
const symbolOf = (currency: string) =>
  new Intl.NumberFormat('en', { style: 'currency', currency }).formatToParts(0).find((p) => p.type === 'currency')!
    .value;
const minorDigitsOf = (currency: string) =>
  new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits!;

describe('for every active listing of the demo data', () => {
  it('the API and the rental page agree on gross, net, VAT, free units and deposit', async () => {
    let checked = 0;
    let adjusted = 0;
    for (const f of demoJson().facilities) {
      const key = keys.get(f.id)!;
      const list = json(await call(demo.handler, '/external/listings', { key }));
      const active = f.listings.filter((l: { active: boolean }) => l.active);
      expect(list.listings.map((l: { code: string }) => l.code)).toEqual(active.map((l: { code: string }) => l.code));
      for (const summary of list.listings) {
        const api: Detail = json(await call(demo.handler, `/external/listings/${summary.id}`, { key }));
        const page = await call(demo.handler, `/rent/${f.id}/${encodeURIComponent(api.code)}`, ENGLISH);
        expect(page.status).toBe(200);
        expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
        const { ld, field } = read(page.text);
        const { price } = api;
        const where = `${f.id}/${api.code}`;

        const offer = ld.makesOffer[0];
        expect({ where, type: ld['@type'], name: ld.name, offers: ld.makesOffer.length }).toEqual({
          where,
          type: 'SelfStorage',
          name: f.name,
          offers: 1,
        });
        expect({ type: offer['@type'], sku: offer.sku, name: offer.name }).toEqual({
          type: 'Offer',
          sku: api.code,
          name: api.title,
        });
        expect(offer.priceCurrency).toBe(price.currency);
        expect(offer.price).toEqual(expect.any(String));
        const [, decimals = ''] = offer.price.split('.');
        expect(decimals.length).toBe(minorDigitsOf(price.currency));
        expect(Number(offer.price.replace('.', ''))).toBe(price.gross);
        expect(offer.availability).toBe(
          api.free_units > 0 ? 'https://schema.org/InStock' : 'https://schema.org/SoldOut',
        );
        expect(offer, 'the Offer the widget writes for this listing, with the words and photos of the unit').toEqual({
          ...offerOf(summary),
          description: api.description,
          image: api.photos.map((p) => p.url),
        });

        const gross = field('gross');
        expect(gross.minor).toBe(price.gross);
        expect(minorOfText(gross.text)).toBe(price.gross);
        expect(gross.text).toContain(symbolOf(price.currency));
        const net = field('net');
        expect(net.minor).toBe(price.net);
        expect(minorOfText(net.text)).toBe(price.net);
        expect(Number(/^([\d.]+)%$/.exec(field('vat_rate').text)?.[1])).toBe(price.vat_rate);
        const deposit = field('deposit');
        expect(deposit.minor).toBe(api.deposit.amount);
        expect(minorOfText(deposit.text)).toBe(api.deposit.amount);
        const free = field('free_units');
        expect(free.count).toBe(api.free_units);
        if (api.free_units === 0) expect(free.text).toBe('Sold out');
        else expect(Number(/^(\d+) units? free$/.exec(free.text)?.[1])).toBe(api.free_units);
        expect(field('code').text).toBe(api.code);

        const base = active.find((l: { code: string }) => l.code === api.code).price_gross;
        if (api.dynamic_pricing && price.gross !== base) adjusted++;
        checked++;
      }
    }
    expect(checked).toBe(
      demoJson().facilities.flatMap((f) => f.listings.filter((l: { active: boolean }) => l.active)).length,
    );
    // Dynamic pricing really moved some prices away from the operator's base price, and the page followed.
    expect(adjusted).toBeGreaterThan(0);
  });
});

describe('the Rent action leads somewhere honest', () => {
  const pageOf = async (facility: string, code: string) =>
    (await call(demo.handler, `/rent/${facility}/${code}`, ENGLISH)).text;
  const rentLink = (page: string) => /<p class="cta"><a class="button" href="([^"]*)">(.*?)<\/a>/.exec(page);

  it("to the operator's booking page when the import names one, with the facility and code filled in", async () => {
    const link = rentLink(await pageOf('ber-1', 'S-1'));
    expect(link?.[1]).toBe('https://booking.example.com/lagerbox/ber-1/S-1');
  });

  it('to an email to the operator when the import gives a contact, with the phone in the next steps', async () => {
    const page = await pageOf('wro-1', 'M-07');
    const link = rentLink(page);
    expect(link?.[1]).toMatch(/^mailto:rent@safebox\.example\.com\?subject=Renting%20M-07/);
    expect(page).toContain('href="tel:+48715550107"');
  });

  it('nowhere dead: without booking page or contact there is no button, and the page says how to rent', async () => {
    const page = await pageOf('zrh-1', 'A-1');
    expect(rentLink(page)).toBeNull();
    expect(page).not.toContain('href="#book"');
    expect(page).toContain('Online booking is not offered here');
  });

  it('a unit without photos shows a labelled placeholder, not an empty box', async () => {
    const withNone = demoJson().facilities.flatMap((f) =>
      f.listings
        .filter((l: { photos: unknown[]; active: boolean }) => l.active && l.photos.length === 0)
        .map((l: { code: string }) => [f.id, l.code]),
    );
    expect(withNone.length).toBeGreaterThan(0);
    const [facility, code] = withNone[0]!;
    const page = await pageOf(facility, code);
    expect(page).toMatch(
      /<figure class="no-photo"><div class="placeholder" role="img" aria-label="No photo of this unit yet">/,
    );
    const withPhotos = await pageOf('wro-1', 'M-07');
    expect(withPhotos).not.toContain('no-photo');
  });
});

describe('pages that do not exist', () => {
  it.each([
    ['an unknown code', '/rent/wro-1/NOPE'],
    ['an unknown facility', '/rent/nowhere/M-07'],
    ['an inactive listing', '/rent/wro-1/OLD-1'],
    ['an extra segment', '/rent/wro-1/M-07/more'],
    ['no code', '/rent/wro-1'],
    ['a bad escape', '/rent/wro-1/%E0%A4%A'],
  ])('%s is a 404 HTML page', async (_name, path) => {
    const r = await call(demo.handler, path);
    expect(r.status).toBe(404);
    expect(r.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(r.text).toMatch(/^<!doctype html>/);
    expect(r.text).not.toContain('application/ld+json');
  });

  it('a percent-encoded code names the same unit as the code itself', async () => {
    const plain = await call(demo.handler, '/rent/wro-1/M-07');
    const encoded = await call(demo.handler, '/rent/wro-1/M%2D07');
    expect(plain.status).toBe(200);
    expect(encoded.status).toBe(200);
    expect(encoded.text).toBe(plain.text);
    expect((await call(demo.handler, '/rent/wro-1/m-07')).status).toBe(404); // codes are case-sensitive, as ids are
  });

  it("names one canonical address however it is reached (a partner's ?ref=, an encoded code): its rent_url", async () => {
    const key = keys.get('wro-1')!;
    const list = json(await call(demo.handler, '/external/listings', { key }));
    const summary = list.listings.find((l: { code: string }) => l.code === 'M-07');
    const { rent_url } = json(await call(demo.handler, `/external/listings/${summary.id}`, { key })) as Detail;
    expect(rent_url).toMatch(/^http:\/\/[^?]+\/rent\/wro-1\/M-07$/);
    for (const path of ['/rent/wro-1/M-07?ref=partner-a', '/rent/wro-1/M%2D07'])
      expect((await call(demo.handler, path)).text).toContain(`<link rel="canonical" href="${rent_url}">`);
  });

  it('the inactive listing is stored (its 404 is not for lack of data)', async () => {
    expect((await call(demo.handler, '/rent/wro-1/M-07')).status).toBe(200);
    expect(
      demoJson().facilities[0].listings.some((l: { code: string; active: boolean }) => l.code === 'OLD-1' && !l.active),
    ).toBe(true);
  });
});

describe('hostile operator text', () => {
  it('is escaped in the HTML and cannot close the JSON-LD script', async () => {
    const r = await call(demo.handler, '/rent/evil-1/X-1');
    expect(r.status).toBe(200);
    const html = r.text;
    expect((html.match(/<script/g) ?? []).length).toBe(1);
    expect(html).not.toContain('<script>alert');
    expect(html).not.toContain('<img src=x');
    expect(html).not.toContain('<b>Evil');
    expect(html).toContain('<h1>&lt;script&gt;alert(1)&lt;/script&gt;</h1>');
    expect(html).toContain('&lt;b&gt;Evil&lt;/b&gt; &amp; Co');
    expect(html).toContain('alt="&quot;&gt;&lt;img src=x onerror=alert(3)&gt;"');
    const { ld } = read(html);
    const listing = HOSTILE.listings[0]!;
    expect(ld.name).toBe(HOSTILE.name);
    expect(ld.makesOffer[0].name).toBe(listing.title);
    expect(ld.makesOffer[0].description).toBe(listing.description);
    expect(/<script type="application\/ld\+json">([^<]*)<\/script>/.exec(html)![1]).not.toMatch(/[<\u2028]/);
  });
});
