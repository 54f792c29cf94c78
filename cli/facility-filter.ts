// The `--facility ID` filter of commands that list rows: an id that names no facility is a mistake in the command
// line, reported as `keys create` reports it, not an empty table that reads as "none yet".
import type { Store } from '../server/store/store.ts';
import { unknownFacility } from '../server/store/keys.ts';

/** Refuses a filter naming a facility the store does not hold; no filter, or a known facility, passes. */
export async function checkFacilityFilter(store: Store, facilityId: string | undefined): Promise<void> {
  if (facilityId !== undefined && (await store.facilityHead(facilityId)) === undefined)
    throw unknownFacility(facilityId);
}
