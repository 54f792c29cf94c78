// The element's events and their `detail`: the element fires them through this map, and the published types
// (widget/types/storage-listings.d.ts, made by `npm run widget:api`) are made from it.
import type { Summary } from '../../shared/listing.ts';

export interface StorageListingsEventMap {
  'storage-listings-load': CustomEvent<{
    /** The listings shown, in order. */
    listings: Summary[];
  }>;
  'storage-listings-error': CustomEvent<{
    /** The HTTP status, 0 without one. */
    status: number;
    /** The API's error code, `http_<status>` for an answer without one, or the widget's own. */
    code: string;
  }>;
  'storage-listings-rent': CustomEvent<{
    listing: Summary;
    id: string;
    code: string;
    /** The regular gross price per period in minor units (`32900`), as the API's `price`. */
    price: number;
    /** The gross of the first period in minor units (`16450`): a promotion's where one covers it, else `price`. */
    first_period_price: number;
    /** Its ISO 4217 currency. */
    currency: string;
  }>;
}
