// Listing views: the Summary and Detail objects of the contract, built from domain listings by one set of functions.
import type { Detail, ListResponse, Summary } from '../../shared/listing.ts';
import type { Facility, FacilityData, Listing } from './facility.ts';
import { priceOf } from '../../shared/pricing.ts';

/** An operator's URL template with {facility} and {code} filled in, both URL-encoded. */
function filled(template: string, facilityId: string, code: string): string {
  return template
    .replaceAll('{facility}', encodeURIComponent(facilityId))
    .replaceAll('{code}', encodeURIComponent(code));
}

export function rentUrlOf(facility: Facility, code: string, publicUrl: string): string {
  if (facility.rental_page_url) return filled(facility.rental_page_url, facility.id, code);
  return `${publicUrl.replace(/\/+$/, '')}/rent/${encodeURIComponent(facility.id)}/${encodeURIComponent(code)}`;
}

/** Where the rental page's Rent button leads: the operator's booking page, when the import names one. */
export function bookingUrlOf(facility: Facility, code: string): string | null {
  return facility.booking_url ? filled(facility.booking_url, facility.id, code) : null;
}

export function summaryOf(listing: Listing, data: FacilityData, publicUrl: string): Summary {
  const cover = listing.photos[0];
  return {
    id: listing.id,
    code: listing.code,
    title: listing.title,
    area_m2: listing.area_m2,
    price: priceOf(listing, { currency: data.facility.currency, pricing_rules: data.pricing_rules }),
    dynamic_pricing: listing.dynamic_pricing,
    free_units: listing.free_units,
    rent_url: rentUrlOf(data.facility, listing.code, publicUrl),
    cover_photo: cover ? { url: cover.url, caption: cover.caption } : null,
  };
}

export function detailOf(listing: Listing, data: FacilityData, publicUrl: string): Detail {
  return {
    ...summaryOf(listing, data, publicUrl),
    dimensions: { width_m: listing.width_m, depth_m: listing.depth_m, height_m: listing.height_m },
    description: listing.description,
    min_rental_period: listing.min_rental_period,
    notice_period: listing.notice_period,
    deposit: { amount: listing.deposit, currency: data.facility.currency },
    photos: listing.photos.map((p) => ({ url: p.url, caption: p.caption, width: p.width, height: p.height })),
  };
}

export function listResponseOf(data: FacilityData, publicUrl: string): ListResponse {
  return {
    facility: { id: data.facility.id, name: data.facility.name },
    listings: data.listings.map((l) => summaryOf(l, data, publicUrl)),
  };
}
