// React 18 or 19 without event props: a ref and addEventListener, typed by the element's event map; properties (such
// as `strings`, an object) set on the element itself.
import { useEffect, useRef } from 'react';
import type { StorageListings, StorageListingsEventMap } from 'storage-listings/widget';

export function TrackedListings() {
  const ref = useRef<StorageListings>(null);
  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    element.strings = { rent: 'Book now', unitsLeft: { one: '{n} unit free', other: '{n} units free' } };
    const onLoad = (event: StorageListingsEventMap['storage-listings-load']) =>
      console.error(event.detail.listings.length);
    element.addEventListener('storage-listings-load', onLoad);
    return () => element.removeEventListener('storage-listings-load', onLoad);
  }, []);
  return (
    <storage-listings ref={ref} src="https://cdn.example/wro-1/listings.json" facility="wro-1" heading-level={3} />
  );
}
