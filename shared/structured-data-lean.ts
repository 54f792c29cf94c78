// The lean schema.org JSON-LD the widget writes into a partner's page: a SelfStorage business by name, and one Offer
// per listing with its price, availability and rent URL. The rental page's JSON-LD (shared/structured-data.ts) is this
// with the business's address, coordinates, contact, hours and amenities and each Offer's price per period added.
import type { Offer, SelfStorageLeaf, WithContext } from 'schema-dts';
import type { FacilityInfo, Summary } from './listing.ts';
import { majorUnits } from './format.ts';

/** What a lean Offer is made from: any Summary or Detail. */
export type Listed = Pick<Summary, 'code' | 'title' | 'price' | 'free_units' | 'rent_url'>;

/** The business as a top-level JSON-LD object, its offers a list. */
export type SelfStorageLd = WithContext<SelfStorageLeaf> & { makesOffer: Offer[] };

/** A listing as a schema.org Offer: the regular gross price in major units ("329.00"), availability and rent URL. */
export function leanOfferOf({ code, title, price, free_units, rent_url }: Listed): Offer {
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

/** A facility (or its name, or none) as a schema.org SelfStorage business that makes one Offer per listing. */
export function leanSelfStorageOf<L extends Listed>(
  facility: string | Pick<FacilityInfo, 'name'> | undefined,
  listings: readonly L[],
  offer: (listing: L) => Offer = leanOfferOf,
): SelfStorageLd {
  return {
    '@context': 'https://schema.org',
    '@type': 'SelfStorage',
    name: typeof facility === 'string' ? facility : facility?.name,
    makesOffer: listings.map(offer),
  };
}
