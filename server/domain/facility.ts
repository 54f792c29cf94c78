// What the domain works on: a facility, its pricing rules and its active listings as plain objects, whatever stores them.
import { hash } from 'node:crypto';
import type { PricedListing, PricingRule } from '../../shared/pricing.ts';
import type { Address, Amenity, Door, Feature, Geo, Hours, PromotionKind, UnitType } from '../../shared/listing.ts';
import type { PricedFee, PricedPlan } from '../../shared/move-in.ts';
import type { PricedPromotion } from '../../shared/promotions.ts';

/** A fee as the import gives it: money as gross minor units and its VAT rate. */
export interface FacilityFee extends PricedFee {
  title: string;
}

export interface FacilityPlan extends PricedPlan {
  title: string;
  /** What the plan covers, in minor units of the facility's currency (no VAT). */
  cover: number;
}

export interface FacilityProtection {
  required: boolean;
  plans: FacilityPlan[];
}

/** A promotion as the import gives it; times are UTC with Z and whole seconds. */
export interface ListingPromotion extends PricedPromotion {
  title: string;
  terms: string | null;
  kind: PromotionKind;
  new_tenants_only: boolean;
}

export interface Facility {
  id: string;
  name: string;
  currency: string;
  /** A template with {facility} and {code}; null sends renters to the server's own rental page. */
  rental_page_url: string | null;
  /** The operator's booking page (may hold {facility} and {code}); else renters are told how to reach the operator. */
  booking_url: string | null;
  contact_email: string | null;
  /** As the operator wrote it (the rental page shows it so); answers give it in E.164. */
  contact_phone: string | null;
  address: Address | null;
  geo: Geo | null;
  /** IANA time zone of the hours. */
  timezone: string | null;
  /** Every day of the week (`"24/7"` in the file is 00:00-24:00 each day), or null when not given. */
  office_hours: Hours | null;
  access_hours: Hours | null;
  amenities: Amenity[];
  fees: FacilityFee[];
  protection: FacilityProtection | null;
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
  unit_type: UnitType | null;
  features: Feature[];
  floor: number | null;
  door: Door | null;
  /** In the operator's order, active or not: what is active is decided when an answer is made. */
  promotions: ListingPromotion[];
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
