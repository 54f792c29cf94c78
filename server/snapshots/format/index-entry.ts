// One facility's row in index.json (contract, "Signed snapshots"): made by one function from what the facility has.
import type { Detail, Price } from '../../../shared/listing.ts';

/** What the index says about a facility's content: everything but where and which version. */
export interface IndexSummary {
  id: string;
  name: string;
  /** The facility's address and geo as answers give them: null when the operator gave none. */
  address: unknown;
  geo: unknown;
  currency: string | null;
  listings: number;
  from_price: Price | null;
}

export interface IndexEntry extends IndexSummary {
  version: number;
  digest: string;
  updated_at: string;
  url: string;
}

/** The facility as the index sees it: id and name always, the rest when the facility has it. */
export interface IndexedFacility {
  id: string;
  name: string;
  currency?: string;
  address?: unknown;
  geo?: unknown;
}

/** `from_price`: the lowest regular monthly price among listings with free units, as that listing's price object. */
export function fromPriceOf(listings: readonly Pick<Detail, 'price' | 'free_units'>[]): Price | null {
  let best: Price | null = null;
  for (const l of listings) {
    if (l.free_units > 0 && l.price.period === 'P1M' && (best === null || l.price.gross < best.gross)) best = l.price;
  }
  return best;
}

export function indexSummaryOf(
  facility: IndexedFacility,
  listings: readonly Pick<Detail, 'price' | 'free_units'>[],
): IndexSummary {
  return {
    id: facility.id,
    name: facility.name,
    address: facility.address ?? null,
    geo: facility.geo ?? null,
    currency: facility.currency ?? listings[0]?.price.currency ?? null,
    listings: listings.length,
    from_price: fromPriceOf(listings),
  };
}

/** The entry in the contract's key order. */
export function indexEntryOf(
  summary: IndexSummary,
  published: { version: number; digest: string; updatedAt: string; url: string },
): IndexEntry {
  return {
    ...summary,
    version: published.version,
    digest: published.digest,
    updated_at: published.updatedAt,
    url: published.url,
  };
}
