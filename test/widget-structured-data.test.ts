// The widget's lean JSON-LD (shared/structured-data-lean.ts), validated against schema.org's vocabulary offline, and
// the rental page's JSON-LD built on it: the same business and offers, with the rest added.
import { beforeAll, describe, expect, it } from 'vitest';
import type { FacilityInfo } from '../shared/listing.ts';
import { leanOfferOf, leanSelfStorageOf } from '../shared/structured-data-lean.ts';
import { offerOf, selfStorageOf } from '../shared/structured-data.ts';
import { SchemaOrgValidator } from './helpers/schema-org.ts';

const FACILITY = {
  id: 'wro-1',
  name: 'SafeBox Wrocław Centrum',
  address: { street: 'ul. Legnicka 12', postal_code: '53-674', city: 'Wrocław', region: null, country: 'PL' },
  geo: { lat: 51.1129, lng: 17.0112 },
  contact: { email: 'rent@safebox.example.com', phone: '+48715550107' },
  amenities: ['cctv'],
} satisfies Partial<FacilityInfo>;

const listing = (code: string, gross: number, free_units: number) => ({
  code,
  title: `Unit ${code}`,
  price: { gross, net: Math.round(gross / 1.23), vat_rate: 23, currency: 'PLN', period: 'P1M' },
  free_units,
  rent_url: `https://rent.example.com/wro-1/${code}`,
});
const LISTINGS = [listing('M-07', 32900, 2), listing('S-1', 15900, 0)];

let validator: SchemaOrgValidator;
beforeAll(() => {
  validator = new SchemaOrgValidator();
});

describe("the widget's lean JSON-LD", () => {
  it('is a SelfStorage by name with one Offer per listing: price in major units, availability, rent URL', () => {
    expect(leanSelfStorageOf(FACILITY, LISTINGS)).toEqual({
      '@context': 'https://schema.org',
      '@type': 'SelfStorage',
      name: 'SafeBox Wrocław Centrum',
      makesOffer: [
        {
          '@type': 'Offer',
          sku: 'M-07',
          name: 'Unit M-07',
          price: '329.00',
          priceCurrency: 'PLN',
          availability: 'https://schema.org/InStock',
          url: 'https://rent.example.com/wro-1/M-07',
        },
        expect.objectContaining({ sku: 'S-1', price: '159.00', availability: 'https://schema.org/SoldOut' }),
      ],
    });
  });

  it("validates against schema.org's vocabulary, from a facility, a name alone or none", () => {
    for (const facility of [FACILITY, 'SafeBox', undefined]) {
      expect(validator.validate(leanSelfStorageOf(facility, LISTINGS))).toEqual([]);
    }
  });

  it("is what the rental page's JSON-LD is made on: each of its offers and the business hold the lean ones", () => {
    const full = selfStorageOf(FACILITY, LISTINGS);
    expect(full).toMatchObject(leanSelfStorageOf(FACILITY, LISTINGS));
    expect(Object.keys(full)).toEqual(expect.arrayContaining(['address', 'geo', 'telephone', 'amenityFeature']));
    for (const l of LISTINGS) expect(offerOf(l)).toMatchObject(leanOfferOf(l));
  });
});
