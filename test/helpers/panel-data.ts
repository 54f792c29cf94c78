// Many facilities of many listings, made from the demo's first facility and listing: data that only grows in number.
import { parseImport } from '../../server/domain/import.ts';
import type { ImportFile } from '../../server/schemas/import.ts';
import { demoJson } from './fixture.ts';

const pad = (n: number) => String(n).padStart(4, '0');

/** `facilities` facilities `fac-0000`... (from `first`), `listings` listings each (`U-0000`..., areas and prices rising). */
export function manyFacilities(
  facilities: number,
  listings: number,
  name = (i: number) => `Facility ${pad(i)}`,
  first = 0,
) {
  const demo = demoJson().facilities[0];
  const listing = demo.listings[0];
  return {
    facilities: Array.from({ length: facilities }, (_, k) => first + k).map((i) => ({
      ...demo,
      id: `fac-${pad(i)}`,
      name: name(i),
      listings: Array.from({ length: listings }, (_, j) => ({
        ...listing,
        code: `U-${pad(j)}`,
        title: `Unit ${pad(j)}`,
        area_m2: 1 + j,
        price_gross: 1000 + 10 * j,
        dynamic_pricing: false,
        total_units: 10,
        free_units: j % 3,
      })),
    })),
  };
}

export const manyFacilitiesImport = (facilities: number, listings: number, first = 0): ImportFile =>
  parseImport(JSON.stringify(manyFacilities(facilities, listings, undefined, first)), 'many.json');

/**
 * One facility `mix-1` of `listings` listings that every order and filter of the Listings tab tells apart: codes whose
 * natural order is not their text's (`U-2` before `U-10`), areas and prices that repeat (ties keep the import order),
 * dynamic prices under two occupancy rules (one of a fractional percentage), and every fifth listing inactive.
 */
export function mixedFacility(listings: number) {
  const demo = demoJson().facilities[0];
  const listing = demo.listings[0];
  return {
    facilities: [
      {
        ...demo,
        id: 'mix-1',
        name: 'Mixed',
        pricing_rules: [
          { min_occupancy: 0.5, adjust_pct: 10 },
          { min_occupancy: 0.8, adjust_pct: 12.5 },
        ],
        listings: Array.from({ length: listings }, (_, j) => ({
          ...listing,
          code: `U-${j}`,
          title: `Unit ${j}`,
          area_m2: 1 + ((j * 37) % 60),
          price_gross: 1000 + ((j * 53) % 40) * 25,
          dynamic_pricing: j % 2 === 0,
          total_units: 10,
          free_units: j % 11,
          active: j % 5 !== 0,
        })),
      },
    ],
  };
}
