// The JSON-LD offer and business: decimal prices in major units, availability, prices per period with promotions,
// address, coordinates, hours and amenities.
import { describe, expect, it } from 'vitest';
import { offerOf, openingHoursOf, selfStorageOf } from './structured-data.ts';

const listing = {
  code: 'M-07',
  title: 'Medium unit',
  price: { gross: 32900, net: 26748, vat_rate: 23, currency: 'PLN', period: 'P1M' },
  free_units: 3,
  rent_url: 'https://rent.example.com/wro-1/M-07',
};

const regularSpec = {
  '@type': 'UnitPriceSpecification',
  price: '329.00',
  priceCurrency: 'PLN',
  valueAddedTaxIncluded: true,
  billingDuration: 'P1M',
  referenceQuantity: { '@type': 'QuantitativeValue', value: 1, unitCode: 'MON' },
};

describe('offerOf', () => {
  it('writes an Offer with a decimal price, the currency, availability, the rent URL and the price per period', () => {
    expect(offerOf(listing)).toEqual({
      '@type': 'Offer',
      sku: 'M-07',
      name: 'Medium unit',
      price: '329.00',
      priceCurrency: 'PLN',
      availability: 'https://schema.org/InStock',
      url: 'https://rent.example.com/wro-1/M-07',
      priceSpecification: [regularSpec],
    });
    expect(offerOf({ ...listing, free_units: 0 }).availability).toBe('https://schema.org/SoldOut');
    expect(offerOf({ ...listing, price: { ...listing.price, gross: 5000, currency: 'JPY' } }).price).toBe('5000');
  });

  it('prices each run of the schedule: promoted periods with their start, length and title, then the regular price', () => {
    const offer = offerOf({
      ...listing,
      schedule: [
        { from_period: 1, to_period: 3, gross: 16450, promotion: 'HALF3' },
        { from_period: 4, to_period: null, gross: 32900, promotion: null },
      ],
      promotions: [{ code: 'HALF3', title: '50 % off 3 months' }],
    });
    expect(offer.price).toBe('329.00'); // the regular price, as the API's `price`
    expect(offer.priceSpecification).toEqual([
      { ...regularSpec, name: '50 % off 3 months', price: '164.50', billingDuration: 'P3M' },
      { ...regularSpec, billingStart: 3, unitCode: 'MON' },
    ]);
  });

  it("says until when a promoted price is offered: its promotion's end", () => {
    const offer = offerOf({
      ...listing,
      schedule: [
        { from_period: 1, to_period: 1, gross: 100, promotion: 'ONE' },
        { from_period: 2, to_period: null, gross: 32900, promotion: null },
      ],
      promotions: [{ code: 'ONE', title: 'First month 1 zł', ends_at: '2026-12-31T23:00:00Z' }],
    });
    const [first, rest] = offer.priceSpecification as unknown as Record<string, unknown>[];
    expect(first).toMatchObject({ name: 'First month 1 zł', validThrough: '2026-12-31T23:00:00Z' });
    expect(rest).not.toHaveProperty('validThrough');
  });

  it('counts a run after the first in the billing unit of a multi-week period', () => {
    const offer = offerOf({
      ...listing,
      price: { ...listing.price, period: 'P2W' },
      schedule: [
        { from_period: 1, to_period: 1, gross: 100, promotion: 'ONE' },
        { from_period: 2, to_period: null, gross: 32900, promotion: null },
      ],
    });
    const [first, rest] = offer.priceSpecification as unknown as Record<string, unknown>[];
    expect(first).toMatchObject({ billingDuration: 'P2W', referenceQuantity: { value: 2, unitCode: 'WEE' } });
    expect(first).not.toHaveProperty('name'); // a code without its promotion: no title to show
    expect(rest).toMatchObject({ billingDuration: 'P2W', billingStart: 2, unitCode: 'WEE' });
  });
});

describe('openingHoursOf', () => {
  it('groups the days that share a range, splits a day of two ranges, skips closed days, closes 24:00 at 23:59:59', () => {
    const hours = openingHoursOf({
      mo: ['09:00-18:00'],
      tu: ['09:00-18:00'],
      we: ['09:00-18:00'],
      th: ['09:00-18:00'],
      fr: ['08:00-12:00', '13:00-18:00'],
      sa: ['00:00-24:00'],
      su: [],
    });
    expect(hours.map((h) => [h.dayOfWeek, h.opens, h.closes])).toEqual([
      [['Monday', 'Tuesday', 'Wednesday', 'Thursday'], '09:00:00', '18:00:00'],
      [['Friday'], '08:00:00', '12:00:00'],
      [['Friday'], '13:00:00', '18:00:00'],
      [['Saturday'], '00:00:00', '23:59:59'],
    ]);
  });
});

describe('selfStorageOf', () => {
  it('makes a SelfStorage business with one offer per listing from a name alone', () => {
    const ld = selfStorageOf('SafeBox', [listing, { ...listing, code: 'S-1' }]);
    expect(ld['@type']).toBe('SelfStorage');
    expect(ld.name).toBe('SafeBox');
    expect(ld.makesOffer.map((o) => o.sku)).toEqual(['M-07', 'S-1']);
    expect(Object.keys(ld)).toEqual(['@context', '@type', 'name', 'makesOffer']);
  });

  it("adds the facility's address, coordinates, contact, office hours and amenities, access hours among them", () => {
    const allDay = ['00:00-24:00'];
    const ld = selfStorageOf(
      {
        name: 'SafeBox',
        address: { street: null, postal_code: '53-674', city: 'Wrocław', region: null, country: 'PL' },
        geo: { lat: 51.1129, lng: 17.0112 },
        contact: { email: null, phone: '+48715550107' },
        office_hours: { mo: ['09:00-18:00'], tu: [], we: [], th: [], fr: [], sa: [], su: [] },
        access_hours: { mo: allDay, tu: allDay, we: allDay, th: allDay, fr: allDay, sa: allDay, su: allDay },
        amenities: ['cctv', 'loading_bay'],
      },
      [listing],
    );
    expect(ld.address).toEqual({
      '@type': 'PostalAddress',
      addressLocality: 'Wrocław',
      addressCountry: 'PL',
      postalCode: '53-674',
    });
    expect(ld.geo).toEqual({ '@type': 'GeoCoordinates', latitude: 51.1129, longitude: 17.0112 });
    expect(ld.telephone).toBe('+48715550107');
    expect(ld).not.toHaveProperty('email');
    expect(ld.openingHoursSpecification).toEqual([
      { '@type': 'OpeningHoursSpecification', dayOfWeek: ['Monday'], opens: '09:00:00', closes: '18:00:00' },
    ]);
    const features = ld.amenityFeature as unknown as { name: string; hoursAvailable?: unknown[] }[];
    expect(features.map((f) => f.name)).toEqual(['CCTV', 'Loading bay', 'Access hours']);
    expect(features[2]!.hoursAvailable).toHaveLength(1); // seven days of 00:00-24:00 are one specification
  });

  it('gives the access hours as opening hours when there are no office hours', () => {
    const ld = selfStorageOf(
      {
        name: 'SafeBox',
        access_hours: { mo: ['06:00-22:00'], tu: [], we: [], th: [], fr: [], sa: [], su: [] },
      },
      [],
    );
    expect(ld.openingHoursSpecification).toEqual([
      { '@type': 'OpeningHoursSpecification', dayOfWeek: ['Monday'], opens: '06:00:00', closes: '22:00:00' },
    ]);
  });
});
