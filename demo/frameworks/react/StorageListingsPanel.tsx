'use client';
// React 19 (and a Next.js client component): the element is typed through the bundle's storage-listings.d.ts; events
// are `on` + their name, which React 19 binds as listeners on custom elements. React 19 sets `strings` and `limit` as
// properties: `strings` takes the object (or its JSON), `limit` a number (or its text). The page loads the script once.
import { useState } from 'react';
import type { StorageListingsRentDetail } from 'storage-listings/widget';

export function StorageListingsPanel({ apiKey, apiBase }: { apiKey: string; apiBase: string }) {
  const [lastRent, setLastRent] = useState<StorageListingsRentDetail | null>(null);
  return (
    <section>
      <storage-listings
        api-key={apiKey}
        api-base={apiBase}
        sort="price"
        limit={6}
        strings={{ rent: 'Book now' }}
        structured-data
        onstorage-listings-rent={(event) => setLastRent(event.detail)}
        onstorage-listings-error={(event) => console.error(event.detail.code)}
      >
        <a href={`${apiBase}/rent`}>See our units and prices</a>
      </storage-listings>
      {lastRent && <p>Renting {lastRent.code}</p>}
    </section>
  );
}
