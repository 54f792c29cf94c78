// Types of <storage-listings> for TypeScript, React 19 (JSX) and Vue 3: the widget build copies this file next to the
// bundle (dist/widget/storage-listings.d.ts). Needs no package at run time; the React and Vue parts augment those
// packages' types (with `skipLibCheck`, as in every Vite and Next template, a project without one of them is fine).

/** A listing as the widget shows it and puts in its events: the API's Summary. */
export interface StorageListingsListing {
  id: string;
  code: string;
  title: string;
  area_m2: number;
  /** Money in minor units (cents, grosze) with an ISO 4217 currency; period as an ISO 8601 duration (`P1M`). */
  price: { gross: number; net: number; vat_rate: number; currency: string; period: string };
  dynamic_pricing: boolean;
  free_units: number;
  rent_url: string;
  cover_photo: { url: string; caption: string } | null;
}

/** `storage-listings-load`: listings were loaded, or changed on a refresh. */
export interface StorageListingsLoadDetail {
  listings: StorageListingsListing[];
}
/** `storage-listings-error`: loading failed (`status` 0 without an HTTP status). */
export interface StorageListingsErrorDetail {
  status: number;
  code: string;
}
/** `storage-listings-rent` (cancelable): a rent link was clicked; `price` is the gross in minor units. */
export interface StorageListingsRentDetail {
  listing: StorageListingsListing;
  id: string;
  code: string;
  price: number;
  currency: string;
}

export interface StorageListingsEventMap {
  'storage-listings-load': CustomEvent<StorageListingsLoadDetail>;
  'storage-listings-error': CustomEvent<StorageListingsErrorDetail>;
  'storage-listings-rent': CustomEvent<StorageListingsRentDetail>;
}

/** The element's HTML attributes (kebab-case, as written in markup). */
export interface StorageListingsAttributes {
  'api-key'?: string;
  'api-base'?: string;
  src?: string;
  'keys-url'?: string;
  /** The facility id the page expects (`wro-1`): a snapshot or API answer of another facility is refused. */
  facility?: string;
  /** Snapshot mode: the lowest `version` accepted (an older file is refused). */
  'min-version'?: number | string;
  'available-only'?: boolean;
  sort?: 'price' | '-price' | 'area' | '-area' | 'code';
  limit?: number | string;
  locale?: string;
  'show-net'?: boolean;
  'rent-label'?: string;
  target?: string;
  rel?: string;
  refresh?: number | string;
  'heading-level'?: number | string;
  /** JSON of per-instance string overrides, e.g. `{"rent":"Book now"}`. */
  strings?: string;
  'structured-data'?: boolean;
}

/** Event handler props React 19 binds on a custom element: `on` + the event's name. */
export interface StorageListingsReactEvents {
  'onstorage-listings-load'?: (event: CustomEvent<StorageListingsLoadDetail>) => void;
  'onstorage-listings-error'?: (event: CustomEvent<StorageListingsErrorDetail>) => void;
  'onstorage-listings-rent'?: (event: CustomEvent<StorageListingsRentDetail>) => void;
}

export declare class StorageListings extends HTMLElement {
  apiKey: string | undefined;
  apiBase: string | undefined;
  src: string | undefined;
  keysUrl: string | undefined;
  facility: string | undefined;
  minVersion: number | undefined;
  availableOnly: boolean;
  sort: string | undefined;
  limit: number | undefined;
  locale: string | undefined;
  showNet: boolean;
  rentLabel: string | undefined;
  target: string;
  rel: string;
  refresh: number | undefined;
  headingLevel: number;
  strings: Record<string, unknown> | undefined;
  structuredData: boolean;
  /** Resolves once the element has rendered its latest change. */
  readonly updateComplete: Promise<boolean>;
  addEventListener<K extends keyof StorageListingsEventMap>(
    type: K,
    listener: (this: StorageListings, event: StorageListingsEventMap[K]) => void,
    options?: boolean | AddEventListenerOptions,
  ): void;
  addEventListener(
    type: string,
    listener: EventListenerOrEventListenerObject,
    options?: boolean | AddEventListenerOptions,
  ): void;
  removeEventListener<K extends keyof StorageListingsEventMap>(
    type: K,
    listener: (this: StorageListings, event: StorageListingsEventMap[K]) => void,
    options?: boolean | EventListenerOptions,
  ): void;
  removeEventListener(
    type: string,
    listener: EventListenerOrEventListenerObject,
    options?: boolean | EventListenerOptions,
  ): void;
}

declare global {
  interface HTMLElementTagNameMap {
    'storage-listings': StorageListings;
  }
}

declare module 'react' {
  namespace JSX {
    interface IntrinsicElements {
      'storage-listings': import('react').DetailedHTMLProps<
        import('react').HTMLAttributes<StorageListings>,
        StorageListings
      > &
        StorageListingsAttributes &
        StorageListingsReactEvents;
    }
  }
}

declare module 'vue' {
  interface GlobalComponents {
    'storage-listings': import('vue').DefineComponent<StorageListingsAttributes>;
  }
}
