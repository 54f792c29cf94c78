// Listing views: the Summary and Detail objects of the contract, built from stored rows by one set of functions.
import type { Detail, ListResponse, Summary } from '../schemas/listing.ts';
import type { FacilityData, FacilityRow, ListingRow, PhotoRow } from '../store/facilities.ts';
import { priceOf } from './pricing.ts';

type FullListing = ListingRow & { photos: PhotoRow[] };

export function rentUrlOf(facility: FacilityRow, code: string, publicUrl: string): string {
  const f = encodeURIComponent(facility.id);
  const c = encodeURIComponent(code);
  if (facility.rental_page_url) return facility.rental_page_url.replaceAll('{facility}', f).replaceAll('{code}', c);
  return `${publicUrl.replace(/\/+$/, '')}/rent/${f}/${c}`;
}

export function summaryOf(listing: FullListing, data: FacilityData, publicUrl: string): Summary {
  const cover = listing.photos[0];
  return {
    id: listing.id,
    code: listing.code,
    title: listing.title,
    area_m2: listing.area_m2,
    price: priceOf(
      { ...listing, dynamic_pricing: listing.dynamic_pricing === 1 },
      { currency: data.facility.currency, pricing_rules: data.pricing_rules },
    ),
    dynamic_pricing: listing.dynamic_pricing === 1,
    free_units: listing.free_units,
    rent_url: rentUrlOf(data.facility, listing.code, publicUrl),
    cover_photo: cover ? { url: cover.url, caption: cover.caption } : null,
  };
}

export function detailOf(listing: FullListing, data: FacilityData, publicUrl: string): Detail {
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
