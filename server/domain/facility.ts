// What the domain works on: a facility, its pricing rules and its active listings as plain objects, whatever stores them.
import { hash } from 'node:crypto';
import type { PricedListing, PricingRule } from '../../shared/pricing.ts';

export interface Facility {
  id: string;
  name: string;
  currency: string;
  /** A template with {facility} and {code}; null sends renters to the server's own rental page. */
  rental_page_url: string | null;
  /** The operator's booking page (may hold {facility} and {code}); else renters are told how to reach the operator. */
  booking_url: string | null;
  contact_email: string | null;
  contact_phone: string | null;
}

export interface Photo {
  url: string;
  caption: string;
  width: number | null;
  height: number | null;
}

/** A listing is what pricing needs (base price, VAT, occupancy) and what a Detail shows. */
export interface Listing extends PricedListing {
  id: string;
  code: string;
  title: string;
  area_m2: number;
  width_m: number;
  depth_m: number;
  height_m: number | null;
  description: string;
  min_rental_period: string;
  notice_period: string;
  deposit: number;
  photos: Photo[];
}

/** Everything the answers need about one facility: its active listings in import order, each with its photos. */
export interface FacilityData {
  facility: Facility;
  pricing_rules: PricingRule[];
  listings: Listing[];
}

/** Same facility and code always give the same id, across imports and across databases. */
export function listingIdOf(facilityId: string, code: string): string {
  // One-shot hash(): a rental page computes one per request, and a facility's read one per listing.
  return 'lst_' + hash('sha256', `${facilityId}\0${code}`, 'hex').slice(0, 20);
}
