// Generated import files: facilities whose every title carries a marker, so an answer that shows another facility's data is easy to spot.
import { listingIdOf } from '../../server/domain/facility.ts';

export interface GeneratedFacility {
  id: string;
  /** Appears in the facility's name, every active title and photo URL: nowhere else. */
  marker: string;
  codes: string[];
  ids: string[];
  inactiveIds: string[];
}

/** One listing as the import file spells it; `i` varies the numbers so sorting and filtering have something to do. */
export function listingJson(code: string, title: string, i: number, active = true) {
  return {
    code,
    title,
    active,
    area_m2: 1 + (i % 17) * 1.5,
    dimensions: { width_m: 1 + (i % 3), depth_m: 2, height_m: 2.4 },
    description: `Unit ${code}.`,
    price_gross: 5000 + ((i * 7919) % 40_000),
    price_period: 'P1M',
    vat_rate: 23,
    dynamic_pricing: i % 2 === 0,
    total_units: 10,
    free_units: i % 4,
    min_rental_period: 'P1M',
    notice_period: 'P14D',
    deposit: 5000,
    photos: i % 3 === 0 ? [] : [{ url: `https://img.example/${code}.jpg`, caption: title, width: 800, height: 600 }],
  };
}

/**
 * A facility with `active` listings titled "<marker> <n>" and `inactive` more whose titles carry `inactiveMarker`
 * (an inactive listing must never be shown to anyone).
 */
export function markedFacility(
  id: string,
  marker: string,
  active: number,
  inactive = 0,
  inactiveMarker = 'QXINACTIVE',
) {
  const listings = [
    ...Array.from({ length: active }, (_, i) => ({
      ...listingJson(`${marker}-${i}`, `${marker} unit ${i}`, i),
      photos: [
        {
          url: `https://img.example/${marker.toLowerCase()}/${i}.jpg`,
          caption: `${marker} photo`,
          width: 800,
          height: 600,
        },
      ],
    })),
    ...Array.from({ length: inactive }, (_, i) =>
      listingJson(`${marker}-off-${i}`, `${inactiveMarker} ${marker} ${i}`, i, false),
    ),
  ];
  const json = {
    id,
    name: `${marker} storage`,
    currency: 'EUR',
    pricing_rules: [{ min_occupancy: 0.5, adjust_pct: 10 }],
    listings,
  };
  const facility: GeneratedFacility = {
    id,
    marker,
    codes: listings.filter((l) => l.active).map((l) => l.code),
    ids: listings.filter((l) => l.active).map((l) => listingIdOf(id, l.code)),
    inactiveIds: listings.filter((l) => !l.active).map((l) => listingIdOf(id, l.code)),
  };
  return { json, facility };
}

/** A large import file: `facilities` x `perFacility` listings, facility ids `<prefix>-<n>`. */
export function bigImport(prefix: string, facilities: number, perFacility: number) {
  return {
    facilities: Array.from({ length: facilities }, (_, f) => ({
      id: `${prefix}-${f}`,
      name: `Facility ${f}`,
      currency: 'EUR',
      listings: Array.from({ length: perFacility }, (_, i) => ({
        ...listingJson(`U-${i}`, `Unit ${i} of ${f}`, f + i),
        photos: [],
      })),
    })),
  };
}
