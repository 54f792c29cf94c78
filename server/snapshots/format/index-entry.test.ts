// from_price and the index entry's shape: the contract's words (the lowest regular monthly price with free units).
import { describe, expect, it } from 'vitest';
import type { Price } from '../../../shared/listing.ts';
import { fromPriceOf, indexEntryOf, indexSummaryOf } from './index-entry.ts';

const price = (gross: number, period = 'P1M'): Price => ({ gross, net: gross, vat_rate: 0, currency: 'PLN', period });

describe('fromPriceOf', () => {
  it('takes the lowest monthly price among listings with free units, as that price object', () => {
    const listings = [
      { price: price(500), free_units: 1 },
      { price: price(100), free_units: 0 }, // sold out
      { price: price(50, 'P1W'), free_units: 3 }, // weekly
      { price: price(300), free_units: 2 },
    ];
    expect(fromPriceOf(listings)).toBe(listings[3]!.price);
  });

  it('is null when nothing monthly is free', () => {
    expect(fromPriceOf([{ price: price(100), free_units: 0 }])).toBeNull();
    expect(fromPriceOf([])).toBeNull();
  });
});

describe('indexEntryOf', () => {
  it('writes the contract key order, address and geo null until the facility has them', () => {
    const summary = indexSummaryOf({ id: 'wro-1', name: 'SafeBox' }, [{ price: price(300), free_units: 2 }]);
    const entry = indexEntryOf(summary, {
      version: 3,
      digest: 'd'.repeat(64),
      updatedAt: 'T',
      url: 'wro-1/listings.json',
    });
    expect(Object.keys(entry)).toEqual([
      'id',
      'name',
      'address',
      'geo',
      'currency',
      'listings',
      'from_price',
      'version',
      'digest',
      'updated_at',
      'url',
    ]);
    expect(entry).toMatchObject({ address: null, geo: null, currency: 'PLN', listings: 1, version: 3 });
    const richer = indexSummaryOf({ id: 'x', name: 'X', currency: 'EUR', address: { city: 'B' }, geo: [1, 2] }, []);
    expect(richer).toMatchObject({ currency: 'EUR', address: { city: 'B' }, geo: [1, 2], from_price: null });
  });
});
