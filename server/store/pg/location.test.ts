// How a database's location is shown in messages and logs: never with its password, wherever the URL carries it.
import { describe, expect, it } from 'vitest';
import { describeLocation } from './location.ts';

describe('describeLocation', () => {
  it('masks the password in the user part', () => {
    expect(describeLocation('postgres://listings:Pw-s3cret@db.internal:5432/listings')).toBe(
      'postgres://listings:***@db.internal:5432/listings',
    );
  });

  it('masks a password given as a query parameter, in any case, and keeps the other parameters', () => {
    const shown = describeLocation(
      'postgresql://listings@db.internal/listings?sslmode=require&password=Pw-s3cret&PASSWORD=x&sslpassword=k3y',
    );
    expect(shown).not.toMatch(/Pw-s3cret|=x(&|$)|k3y/);
    expect(shown).toBe(
      'postgresql://listings@db.internal/listings?sslmode=require&password=***&PASSWORD=***&sslpassword=***',
    );
  });

  it('shows a SQLite path as it is, and an unparseable URL without its text', () => {
    expect(describeLocation('/var/lib/listings/listings.db')).toBe('/var/lib/listings/listings.db');
    expect(describeLocation('postgres://[bad:Pw-s3cret')).toBe('postgres://(unparseable URL)');
  });
});
