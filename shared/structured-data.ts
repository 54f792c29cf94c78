// schema.org JSON-LD for search engines: one Offer per listing, built by this one function for the widget (which
// imports this file, so nothing here may need Node) and the rental page, so both tell search engines the same price.
import type { Summary } from './listing.ts';
import { majorUnits } from './format.ts';

type Offered = Pick<Summary, 'code' | 'title' | 'price' | 'free_units' | 'rent_url'>;

/** A listing as a schema.org Offer: the gross price as a decimal string in major units ("329.00"), availability, rent URL. */
export function offerOf({ code, title, price, free_units, rent_url }: Offered) {
  return {
    '@type': 'Offer',
    sku: code,
    name: title,
    price: majorUnits(price.gross, price.currency),
    priceCurrency: price.currency,
    availability: `https://schema.org/${free_units > 0 ? 'InStock' : 'SoldOut'}`,
    url: rent_url,
  };
}

/** A facility as a schema.org SelfStorage business that makes one Offer per listing. */
export function selfStorageOf(name: string | undefined, listings: readonly Offered[]) {
  return { '@context': 'https://schema.org', '@type': 'SelfStorage', name, makesOffer: listings.map(offerOf) };
}
