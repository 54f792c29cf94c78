// Listing views: the Summary and Detail objects of the contract and the list's facility, built from domain objects by
// one set of functions, and priced by the one pricing module (priceOf, rentalTermsOf).
import type { Detail, FacilityInfo, Fee, ListResponse, Protection, Summary } from '../../shared/listing.ts';
import type { Facility, FacilityData, Listing, ListingPromotion } from './facility.ts';
import { netOf, priceOf } from '../../shared/pricing.ts';
import { rentalTermsOf } from '../../shared/rental-terms.ts';
import { promotionPrice } from '../../shared/promotions.ts';
import { e164Of } from '../schemas/places.ts';

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

function feesOf(facility: Facility): Fee[] {
  return facility.fees.map((f) => ({
    code: f.code,
    title: f.title,
    when: f.when,
    amount: {
      gross: f.amount_gross,
      net: netOf(f.amount_gross, f.vat_rate),
      vat_rate: f.vat_rate,
      currency: facility.currency,
    },
  }));
}

function protectionOf(facility: Facility): Protection | null {
  const p = facility.protection;
  if (!p) return null;
  const { currency } = facility;
  return {
    required: p.required,
    plans: p.plans.map((plan) => ({
      code: plan.code,
      title: plan.title,
      cover: { amount: plan.cover, currency },
      price: {
        gross: plan.price_gross,
        net: netOf(plan.price_gross, plan.vat_rate),
        vat_rate: plan.vat_rate,
        currency,
        period: plan.period,
      },
    })),
  };
}

/** The list's facility object: every field present, null or [] when the operator did not give it. */
export function facilityInfoOf(facility: Facility): FacilityInfo {
  const { contact_email: email, contact_phone: phone } = facility;
  return {
    id: facility.id,
    name: facility.name,
    address: facility.address,
    geo: facility.geo,
    contact: email === null && phone === null ? null : { email, phone: phone === null ? null : e164Of(phone) },
    timezone: facility.timezone,
    office_hours: facility.office_hours,
    access_hours: facility.access_hours,
    amenities: facility.amenities,
    fees: feesOf(facility),
    protection: protectionOf(facility),
  };
}

/** A listing's Summary at the instant `now` (ms since the epoch): its promotions, schedule and move-in are those of now. */
export function summaryOf(listing: Listing, data: FacilityData, publicUrl: string, now: number): Summary {
  const cover = listing.photos[0];
  const { facility } = data;
  const price = priceOf(listing, { currency: facility.currency, pricing_rules: data.pricing_rules });
  const terms = rentalTermsOf(
    {
      price,
      deposit: listing.deposit,
      promotions: listing.promotions,
      fees: facility.fees,
      protection: facility.protection,
    },
    now,
  );
  return {
    id: listing.id,
    code: listing.code,
    title: listing.title,
    area_m2: listing.area_m2,
    price,
    dynamic_pricing: listing.dynamic_pricing,
    free_units: listing.free_units,
    rent_url: rentUrlOf(facility, listing.code, publicUrl),
    cover_photo: cover ? { url: cover.url, caption: cover.caption } : null,
    unit_type: listing.unit_type,
    features: listing.features,
    promotions: terms.promotions,
    schedule: terms.schedule,
    move_in: terms.move_in,
  };
}

/**
 * A listing's Detail at `now`: its Summary (made once per build by the views, and passed here so that rental terms are
 * computed once per listing) and what only a Detail shows; the facility's fees and protection come from its `info`.
 */
export function detailOf(
  listing: Listing,
  data: FacilityData,
  publicUrl: string,
  now: number,
  summary: Summary = summaryOf(listing, data, publicUrl, now),
  info: Pick<FacilityInfo, 'fees' | 'protection'> = facilityInfoOf(data.facility),
): Detail {
  return {
    ...summary,
    dimensions: { width_m: listing.width_m, depth_m: listing.depth_m, height_m: listing.height_m },
    description: listing.description,
    min_rental_period: listing.min_rental_period,
    notice_period: listing.notice_period,
    deposit: { amount: listing.deposit, currency: data.facility.currency },
    photos: listing.photos.map((p) => ({ url: p.url, caption: p.caption, width: p.width, height: p.height })),
    floor: listing.floor,
    door: listing.door,
    fees: info.fees,
    protection: info.protection,
  };
}

/** Whether a promotion has not ended by `at`: one to come, or one under way. */
export function notEndedBy(p: Pick<ListingPromotion, 'ends_at'>, at: number): boolean {
  return p.ends_at === null || at < Date.parse(p.ends_at);
}

/**
 * A snapshot's Detail: as the API's at `from`, but carrying every promotion that has not ended by then (those still to
 * come too, however late) with its times, so that a reader computes what is active when it renders. What it holds then
 * changes only when a promotion starts or ends, never with the file's expires_at.
 */
export function snapshotDetailOf(
  listing: Listing,
  data: FacilityData,
  publicUrl: string,
  from: number,
  info: Pick<FacilityInfo, 'fees' | 'protection'> = facilityInfoOf(data.facility),
): Detail {
  const detail = detailOf(listing, data, publicUrl, from, undefined, info);
  detail.promotions = listing.promotions
    .filter((p) => notEndedBy(p, from))
    .map((p) => ({ ...p, price: promotionPrice(p, detail.price) }));
  return detail;
}

export function listResponseOf(data: FacilityData, publicUrl: string, now: number): ListResponse {
  return {
    facility: facilityInfoOf(data.facility),
    listings: data.listings.map((l) => summaryOf(l, data, publicUrl, now)),
  };
}
