// Rent-link clicks for the panel's referral screenshot: counted by the server's own ClickCounter, its clock set to each
// of the last three weeks in turn, and written to the demo's database as a serving node writes its batch.
import { ClickCounter } from '../server/http/pages/click-counter.ts';
import type { ClickDelta } from '../server/store/referrals.ts';
import type { Store } from '../server/store/store.ts';

const DAY_MS = 86_400_000;
/** Clicks per day, today last; the second partner's days are the same run shifted, so the two refs differ. */
const CLICKS = [2, 0, 3, 5, 1, 0, 4, 6, 3, 2, 7, 5, 0, 1, 4, 8, 6, 3, 5, 9, 4];
const CODES = ['S-03', 'M-07', 'L-12'];
const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36';

/** The clicks one partner's visitors make on a day: about one visitor in three clicks twice. */
function clickDay(counter: ClickCounter, facilityId: string, ref: string, clicks: number, seed: number): void {
  const visitors = Math.max(1, Math.ceil((clicks * 2) / 3));
  for (let i = 0; i < clicks; i++) {
    const visitor = i % visitors;
    // A visitor who clicks twice clicks the same unit: visitors are counted per listing.
    counter.count(facilityId, CODES[(seed + visitor) % CODES.length]!, ref, `203.0.113.${10 + visitor}`, BROWSER);
  }
}

/**
 * Counts three weeks of clicks for each of `refs` (the first as CLICKS, the next ones shifted a week) unless the
 * first ref already has clicks in that time, and writes them with the store's own `recordClicks`.
 */
export async function recordDemoClicks(store: Store, facilityId: string, refs: readonly string[]): Promise<void> {
  const today = Date.now();
  const from = new Date(today - (CLICKS.length - 1) * DAY_MS).toISOString().slice(0, 10);
  const to = new Date(today).toISOString().slice(0, 10);
  if ((await store.referrals({ facilityId, ref: refs[0], from, to })).length > 0) return;
  let now = today;
  const batches: ClickDelta[][] = [];
  const counter = new ClickCounter(
    (deltas) => void batches.push([...deltas]),
    () => now,
  );
  CLICKS.forEach((_, daysAgo) => {
    now = today - (CLICKS.length - 1 - daysAgo) * DAY_MS;
    refs.forEach((ref, r) => {
      const clicks = CLICKS[(daysAgo + 7 * r) % CLICKS.length]!;
      clickDay(counter, facilityId, ref, clicks, daysAgo);
    });
  });
  counter.stop();
  for (const batch of batches) await store.recordClicks(batch);
}
