// The JSON-LD offer: decimal price in major units, availability from free units, the rent URL.
import { describe, expect, it } from 'vitest';
import { offerOf, selfStorageOf } from './structured-data.ts';

const listing = {
  code: 'M-07',
  title: 'Medium unit',
  price: { gross: 32900, net: 26748, vat_rate: 23, currency: 'PLN', period: 'P1M' },
  free_units: 3,
  rent_url: 'https://rent.example.com/wro-1/M-07',
};

describe('structured data', () => {
  it('writes an Offer with a decimal price, the currency, availability and the rent URL', () => {
    expect(offerOf(listing)).toEqual({
      '@type': 'Offer',
      sku: 'M-07',
      name: 'Medium unit',
      price: '329.00',
      priceCurrency: 'PLN',
      availability: 'https://schema.org/InStock',
      url: 'https://rent.example.com/wro-1/M-07',
    });
    expect(offerOf({ ...listing, free_units: 0 }).availability).toBe('https://schema.org/SoldOut');
    expect(offerOf({ ...listing, price: { ...listing.price, gross: 5000, currency: 'JPY' } }).price).toBe('5000');
  });

  it('makes a SelfStorage business with one offer per listing', () => {
    const ld = selfStorageOf('SafeBox', [listing, { ...listing, code: 'S-1' }]);
    expect(ld['@type']).toBe('SelfStorage');
    expect(ld.name).toBe('SafeBox');
    expect(ld.makesOffer.map((o) => o.sku)).toEqual(['M-07', 'S-1']);
  });
});
