// A facility whose listings carry long fields (a 2,500-character description, two photos with long URLs each): the
// rental pages that weigh the most, for the tests that bound what keeping them costs.
import { listingJson } from './data.ts';

/** A URL about `length` characters long, unique to the listing and photo. */
function longUrl(id: string, code: string, photo: number, length: number): string {
  const head = `https://img.example/${id}/${code}/${photo}/`;
  return `${head}${'p'.repeat(Math.max(0, length - head.length - 4))}.jpg`;
}

export function longFieldsFacility(id: string, listings: number) {
  const codes = Array.from({ length: listings }, (_, i) => `L-${i}`);
  const json = {
    id,
    name: `Long fields ${id}`,
    currency: 'EUR',
    pricing_rules: [{ min_occupancy: 0.5, adjust_pct: 10 }],
    listings: codes.map((code, i) => ({
      ...listingJson(code, `Unit ${code} with a long description`, i),
      description: `Unit ${code}. ${'A dry, heated, well lit unit close to the loading bay. '.repeat(50)}`.slice(
        0,
        2500,
      ),
      photos: [0, 1].map((photo) => ({
        url: longUrl(id, code, photo, 1500),
        caption: `Photo ${photo} of ${code}`,
        width: 800,
        height: 600,
      })),
    })),
  };
  return { json, codes };
}
