// The build entry and the widget's only side effect: register <storage-listings> unless a copy already did.
import { StorageListings } from './storage-listings.ts';

// A page may load the widget twice (two partners' snippets, or a cached and a fresh copy): the first one wins.
if (!customElements.get('storage-listings')) customElements.define('storage-listings', StorageListings);

export { StorageListings };

declare global {
  interface HTMLElementTagNameMap {
    'storage-listings': StorageListings;
  }
}
